from django.apps import AppConfig


class ConversationsConfig(AppConfig):
    name = "conversations"
    verbose_name = "Conversations"

    def ready(self) -> None:
        from conversations import receivers  # noqa: F401  (connects signal receivers)
