from django.apps import AppConfig


class IndexingConfig(AppConfig):
    name = "indexing"

    def ready(self) -> None:
        from django.conf import settings
        from django.db.models.signals import post_delete

        from conversations.signals import chat_ai_exclusion_changed, messages_changed
        from indexing import receivers

        post_delete.connect(
            receivers.on_user_deleted,
            sender=settings.AUTH_USER_MODEL,
            dispatch_uid="indexing.on_user_deleted",
        )

        messages_changed.connect(
            receivers.on_messages_changed, dispatch_uid="indexing.on_messages_changed"
        )
        chat_ai_exclusion_changed.connect(
            receivers.on_chat_ai_exclusion_changed,
            dispatch_uid="indexing.on_chat_ai_exclusion_changed",
        )
