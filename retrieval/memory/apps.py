from django.apps import AppConfig


class MemoryConfig(AppConfig):
    """Personal memory derived from messages: relationship metrics, plans and open loops."""

    name = "retrieval.memory"
    label = "memory"
    verbose_name = "Personal memory"

    def ready(self) -> None:
        from conversations.signals import messages_changed
        from retrieval.memory import receivers

        messages_changed.connect(
            receivers.on_messages_changed, dispatch_uid="memory.on_messages_changed"
        )
