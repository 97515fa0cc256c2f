"""Normalising identity values so one phone number, email or handle is one identity."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from conversations.models import IdentityKind, Platform

_NON_DIGITS = re.compile(r"[^\d]")
_SPACES = re.compile(r"\s+")


def normalise_phone(value: str) -> str:
    """Digits only, with a leading ``+`` kept when the number was written internationally."""
    stripped = value.strip()
    digits = _NON_DIGITS.sub("", stripped)
    if stripped.startswith("00") and len(digits) > 2:
        return "+" + digits[2:]
    return ("+" if stripped.startswith("+") else "") + digits


# A national number without its trunk prefix has at least this many digits; a country
# calling code has one to three.
NATIONAL_DIGITS_MIN = 7
COUNTRY_CODE_DIGITS_MAX = 3


def national_digits(value: str) -> str:
    """The digits of a nationally written number without its trunk prefix ("07700 900123"
    -> "7700900123"); an internationally written one (``+``) keeps all its digits."""
    normalised = normalise_phone(value)
    if normalised.startswith("+"):
        return normalised[1:]
    return normalised.lstrip("0")


def phone_same_number(first: str, second: str) -> bool:
    """Whether two written phone numbers are one number: equal digits, or one written
    nationally ("07700 900123", "(312) 555-0199") and the other internationally ("+44 7700
    900123", "+1 312 555 0199"), the international one ending with the national digits after
    a country code of one to three digits. No country is assumed, so two national numbers
    compare by their digits only."""
    a, b = normalise_phone(first), normalise_phone(second)
    if a.lstrip("+") == b.lstrip("+"):
        return bool(a.lstrip("+"))
    if a.startswith("+") == b.startswith("+"):
        return False
    international, national = (a[1:], b) if a.startswith("+") else (b[1:], a)
    digits = national.lstrip("0")
    country = len(international) - len(digits)
    return (
        len(digits) >= NATIONAL_DIGITS_MIN
        and 1 <= country <= COUNTRY_CODE_DIGITS_MAX
        and international.endswith(digits)
    )


def normalise_email(value: str) -> str:
    return value.strip().lower()


def normalise_handle(value: str) -> str:
    return value.strip().lstrip("@").lower()


def normalise_name(value: str) -> str:
    folded = unicodedata.normalize("NFKC", value).casefold()
    return _SPACES.sub(" ", folded).strip()


@dataclass(frozen=True)
class IdentityKey:
    platform: str
    kind: str
    value: str


@dataclass(frozen=True)
class IncomingIdentity:
    """How a bridge or an export names a participant. At least one field must be set.

    Matching prefers the strongest key: platform user id, then phone and email (which match
    across platforms), then handle, then display name within the platform.
    """

    platform: str
    platform_user_id: str = ""
    handle: str = ""
    phone: str = ""
    email: str = ""
    display_name: str = ""

    def keys(self) -> list[IdentityKey]:
        keys: list[IdentityKey] = []
        if self.platform_user_id:
            keys.append(
                IdentityKey(self.platform, IdentityKind.PLATFORM_ID, self.platform_user_id.strip())
            )
        if self.phone and normalise_phone(self.phone).lstrip("+"):
            keys.append(
                IdentityKey(Platform.OTHER, IdentityKind.PHONE, normalise_phone(self.phone))
            )
        if self.email:
            keys.append(
                IdentityKey(Platform.OTHER, IdentityKind.EMAIL, normalise_email(self.email))
            )
        if self.handle:
            keys.append(
                IdentityKey(self.platform, IdentityKind.HANDLE, normalise_handle(self.handle))
            )
        # A display name identifies someone only when nothing stronger is known: two contacts
        # called "Alex" on different accounts must not collapse into one person.
        if not keys and self.display_name.strip():
            keys.append(
                IdentityKey(self.platform, IdentityKind.NAME, normalise_name(self.display_name))
            )
        return keys

    @property
    def label(self) -> str:
        return (
            self.display_name.strip()
            or self.handle.strip()
            or self.phone.strip()
            or self.email.strip()
            or self.platform_user_id.strip()
        )
