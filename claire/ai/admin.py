from django.contrib import admin

from claire.ai.models import ModelCapabilityRecord


@admin.register(ModelCapabilityRecord)
class ModelCapabilityRecordAdmin(admin.ModelAdmin[ModelCapabilityRecord]):
    list_display = ("model_key", "provider", "model", "is_probe_ok", "error_code", "verified_at")
    list_filter = ("provider", "is_probe_ok")
    readonly_fields = (
        "model_key",
        "provider",
        "model",
        "config_fingerprint",
        "capabilities",
        "checks",
        "is_probe_ok",
        "error_code",
        "verified_at",
    )
