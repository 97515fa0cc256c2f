"""A fixed contact book for compiler tests: names chosen to exercise first-name matches,
shared first names, accents, identities and names that are also English words."""

from __future__ import annotations

from dataclasses import dataclass

from conversations.models import ChatKind, IdentityKind, Platform
from tests.factories import (
    ChatFactory,
    ChatParticipantFactory,
    PersonFactory,
    PersonIdentityFactory,
)


@dataclass(frozen=True)
class Contact:
    display_name: str
    identities: tuple[tuple[str, str, str], ...] = ()
    has_direct_chat: bool = False


CONTACTS: tuple[Contact, ...] = (
    Contact(
        "Ana Souza",
        (
            (Platform.TELEGRAM, IdentityKind.HANDLE, "anasouza"),
            (Platform.OTHER, IdentityKind.PHONE, "+351910000001"),
        ),
        has_direct_chat=True,
    ),
    Contact("Ana Lima", has_direct_chat=True),
    Contact("Bruno Costa", has_direct_chat=True),
    Contact("Dmitri Ivanov", ((Platform.TELEGRAM, IdentityKind.HANDLE, "dima"),)),
    Contact("João Pereira", has_direct_chat=True),
    Contact("Mei Chen", ((Platform.OTHER, IdentityKind.EMAIL, "mei@example.com"),)),
    Contact("Will Turner"),
    Contact("Mom", has_direct_chat=True),
    Contact("Sofia Rossi"),
    Contact("Sydney Park"),
    Contact("Lucas", ((Platform.WHATSAPP, IdentityKind.NAME, "lucas m"),)),
)


def contact_book_create(user):
    """Creates ``CONTACTS`` for ``user``; returns person id by display name."""
    ids = {}
    for contact in CONTACTS:
        person = PersonFactory(user=user, display_name=contact.display_name)
        for platform, kind, value in contact.identities:
            PersonIdentityFactory(person=person, platform=platform, kind=kind, value=value)
        if contact.has_direct_chat:
            chat = ChatFactory(user=user, kind=ChatKind.DIRECT, title=contact.display_name)
            ChatParticipantFactory(chat=chat, person=person)
        ids[contact.display_name] = person.pk
    return ids
