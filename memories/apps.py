from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _

AUDITOR_GROUP = "memory auditor"
AUDITOR_VIEWS = {
    "memories": [
        "memory",
        "memoryversion",
        "memoryuse",
        "deletionreceipt",
        "auditevent",
        "extractionrun",
    ],
    "memoryhub": ["llmcall"],
}


def ensure_auditor_group(**kwargs: Any) -> None:
    """The view-only "memory auditor" group, kept after every migrate and flush.

    Migration 0002 creates it; this keeps it when a flush (tests, `manage.py flush`) has
    emptied the tables the migration filled.
    """
    from django.contrib.auth.models import Group, Permission

    group, _created = Group.objects.get_or_create(name=AUDITOR_GROUP)
    for app_label, models in AUDITOR_VIEWS.items():
        group.permissions.add(
            *Permission.objects.filter(
                content_type__app_label=app_label,
                codename__in=[f"view_{model}" for model in models],
            )
        )


class MemoriesConfig(AppConfig):
    name = "memories"
    verbose_name = _("Memories")

    def ready(self) -> None:
        post_migrate.connect(ensure_auditor_group, sender=self)
