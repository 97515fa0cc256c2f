"""People who use Ask Claire. Each user signs in with an email and has a home timezone, in
which relative dates in their questions ("yesterday", "last Friday") are resolved."""

from __future__ import annotations

from typing import Any, ClassVar
from zoneinfo import ZoneInfo, available_timezones

from django.contrib.auth.models import AbstractUser, BaseUserManager
from django.core.exceptions import ValidationError
from django.db import models


def validate_timezone(value: str) -> None:
    if value not in available_timezones():
        raise ValidationError(f"{value!r} is not an IANA timezone name.")


class UserManager(BaseUserManager["User"]):
    use_in_migrations = True

    def _create_user(self, email: str, password: str | None, **extra: Any) -> User:
        if not email:
            raise ValueError("An email address is required.")
        user = self.model(email=self.normalize_email(email).lower(), **extra)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_user(self, email: str, password: str | None = None, **extra: Any) -> User:
        extra.setdefault("is_staff", False)
        extra.setdefault("is_superuser", False)
        return self._create_user(email, password, **extra)

    def create_superuser(self, email: str, password: str | None = None, **extra: Any) -> User:
        extra.setdefault("is_staff", True)
        extra.setdefault("is_superuser", True)
        return self._create_user(email, password, **extra)


class User(AbstractUser):
    username = None  # type: ignore[assignment]
    email = models.EmailField("email address", unique=True)
    timezone = models.CharField(max_length=64, default="UTC", validators=[validate_timezone])
    # The user's own decision whether their evidence may go to remote model providers; empty
    # until they decide, when the deployment's default applies (``claire.accounts.consent``).
    remote_consent = models.BooleanField(
        null=True,
        blank=True,
        help_text="The user agreed that their evidence may be sent to remote model providers "
        "(empty: not decided, the deployment's default applies).",
    )
    remote_consent_changed_at = models.DateTimeField(null=True, blank=True, editable=False)

    USERNAME_FIELD = "email"
    REQUIRED_FIELDS: ClassVar[list[str]] = []

    objects: ClassVar[UserManager] = UserManager()  # type: ignore[assignment]

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.email

    @property
    def zoneinfo(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)
