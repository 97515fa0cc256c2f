"""Argument helpers shared by the indexing commands."""

from __future__ import annotations

from django.core.management.base import CommandError

from claire.accounts.models import User
from indexing.models import IndexVersion


def user_by_email(email: str) -> User:
    user = User.objects.filter(email=email.strip().lower()).first()
    if user is None:
        raise CommandError(f"No user with email {email!r}.")
    return user


def version_by_number(number: int) -> IndexVersion:
    version = IndexVersion.objects.filter(version=number).first()
    if version is None:
        raise CommandError(f"No index version {number}.")
    return version
