"""The "memory auditor" group: staff who may look at memories and their logs, never change them.

Its members still need `is_staff` to sign in to admin; every memory they open is recorded as a
staff view that the memory's owner sees.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "memory auditor"
VIEWED = {
    "memories": ["memory", "memoryversion", "memoryuse", "deletionreceipt", "auditevent",
                 "extractionrun"],
    "memoryhub": ["llmcall"],
}


def _ensure_permissions(apps):
    # Permissions are normally made after all migrations ran; make them now for these apps.
    for label in VIEWED:
        config = apps.get_app_config(label)
        config.models_module = True
        create_permissions(config, apps=apps, verbosity=0)
        config.models_module = None


def create_group(apps, schema_editor):
    _ensure_permissions(apps)
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _created = Group.objects.get_or_create(name=GROUP)
    for app_label, models in VIEWED.items():
        permissions = Permission.objects.filter(
            content_type__app_label=app_label,
            codename__in=[f"view_{model}" for model in models],
        )
        group.permissions.add(*permissions)


def delete_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("memories", "0001_initial"),
        ("memoryhub", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, delete_group)]
