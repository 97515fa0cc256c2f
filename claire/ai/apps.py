from django.apps import AppConfig
from django.core.signals import setting_changed


class AiConfig(AppConfig):
    name = "claire.ai"
    label = "ai"
    verbose_name = "AI runtime"

    def ready(self) -> None:
        setting_changed.connect(_reset_ai_config, dispatch_uid="claire.ai.reset_config")


def _reset_ai_config(*, setting: str, **kwargs: object) -> None:
    if setting in {"AI_CONFIG", "AI_MODELS", "AI_PROFILES"}:
        from claire.ai.config import ai_config_reset

        ai_config_reset()
