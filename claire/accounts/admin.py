from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from claire.accounts.models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin[User]):
    ordering = ("email",)
    list_display = ("email", "first_name", "last_name", "timezone", "is_staff", "date_joined")
    list_filter = ("is_staff", "is_active", "remote_consent")
    search_fields = ("email", "first_name", "last_name")
    readonly_fields = ("remote_consent_changed_at",)
    fieldsets = (
        (None, {"fields": ("email", "password")}),
        ("Profile", {"fields": ("first_name", "last_name", "timezone")}),
        ("Consent", {"fields": ("remote_consent", "remote_consent_changed_at")}),
        (
            "Permissions",
            {"fields": ("is_active", "is_staff", "is_superuser", "groups", "user_permissions")},
        ),
        ("Dates", {"fields": ("last_login", "date_joined")}),
    )
    add_fieldsets = (
        (None, {"classes": ("wide",), "fields": ("email", "timezone", "password1", "password2")}),
    )
