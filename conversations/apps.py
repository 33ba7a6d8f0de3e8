from django.apps import AppConfig


class ConversationsConfig(AppConfig):
    name = "conversations"
    verbose_name = "Conversations"

    def ready(self) -> None:
        from conversations import receivers  # noqa: F401  (connects signal receivers)
        from conversations.selectors import message_hold
        from memories.services.sources import source_check_register

        source_check_register(message_hold)
