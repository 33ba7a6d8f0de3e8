from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ConversationsConfig(AppConfig):
    name = "conversations"
    verbose_name = _("Conversations")

    def ready(self) -> None:
        from conversations import receivers  # noqa: F401  (connects signal receivers)
        from conversations.selectors import message_hold
        from memories.services.sources import source_check_register

        source_check_register(message_hold)
