from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MemoryhubConfig(AppConfig):
    name = "memoryhub"
    verbose_name = _("memoryhub (LLM usage)")
