from django.apps import AppConfig


class ProposalsConfig(AppConfig):
    name = "proposals"
    verbose_name = "Proposals and capabilities"
    default_auto_field = "django.db.models.BigAutoField"
