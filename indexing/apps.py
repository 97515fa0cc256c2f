from django.apps import AppConfig


class IndexingConfig(AppConfig):
    name = "indexing"

    def ready(self) -> None:
        from django.conf import settings
        from django.db.models.signals import post_delete

        from indexing import receivers

        post_delete.connect(
            receivers.on_user_deleted,
            sender=settings.AUTH_USER_MODEL,
            dispatch_uid="indexing.on_user_deleted",
        )
        # Conversation writes call indexing through settings.CONVERSATION_HOOKS.
