from django.apps import AppConfig


class IndexingConfig(AppConfig):
    name = "indexing"

    def ready(self) -> None:
        from conversations.signals import chat_ai_exclusion_changed, messages_changed
        from indexing import receivers

        messages_changed.connect(
            receivers.on_messages_changed, dispatch_uid="indexing.on_messages_changed"
        )
        chat_ai_exclusion_changed.connect(
            receivers.on_chat_ai_exclusion_changed,
            dispatch_uid="indexing.on_chat_ai_exclusion_changed",
        )
