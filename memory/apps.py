from django.apps import AppConfig


class MemoryConfig(AppConfig):
    """Personal memory derived from messages: relationship metrics, plans and open loops."""

    name = "memory"
    label = "memory"
    verbose_name = "Personal memory"

    def ready(self) -> None:
        from django.db.models.signals import pre_delete

        from conversations.models import Chat
        from memory import receivers

        # Ingest calls memory through settings.CONVERSATION_HOOKS (receivers.hook). Deleting a
        # chat deletes what only its messages supported.
        pre_delete.connect(
            receivers.on_chat_pre_delete, sender=Chat, dispatch_uid="memory.on_chat_pre_delete"
        )
