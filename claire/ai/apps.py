from django.apps import AppConfig


class AiConfig(AppConfig):
    name = "claire.ai"
    label = "ai"
    verbose_name = "AI runtime"
