"""Factories for the user and the conversations app: people, identities, chats and messages."""

from __future__ import annotations

import datetime as dt

import factory
from factory.django import DjangoModelFactory

from claire.accounts.models import User
from conversations.models import (
    Chat,
    ChatKind,
    ChatParticipant,
    IdentityKind,
    Message,
    Person,
    PersonIdentity,
    Platform,
    PlatformConnection,
    content_hash_of,
)


class UserFactory(DjangoModelFactory[User]):
    class Meta:
        model = User
        skip_postgeneration_save = True

    email = factory.Sequence(lambda n: f"user{n}@example.com")
    first_name = factory.Faker("first_name")
    timezone = "Europe/Lisbon"
    password = factory.PostGenerationMethodCall("set_password", "correct horse battery staple")

    @classmethod
    def _after_postgeneration(cls, instance, create, results=None):
        if create and results:
            instance.save()


class PlatformConnectionFactory(DjangoModelFactory[PlatformConnection]):
    class Meta:
        model = PlatformConnection

    user = factory.SubFactory(UserFactory)
    platform = Platform.WHATSAPP
    external_account_id = factory.Sequence(lambda n: f"+35191000{n:04d}")
    display_name = "Phone"


class PersonFactory(DjangoModelFactory[Person]):
    class Meta:
        model = Person

    user = factory.SubFactory(UserFactory)
    display_name = factory.Faker("name")


class PersonIdentityFactory(DjangoModelFactory[PersonIdentity]):
    class Meta:
        model = PersonIdentity

    person = factory.SubFactory(PersonFactory)
    user = factory.SelfAttribute("person.user")
    platform = Platform.TELEGRAM
    kind = IdentityKind.HANDLE
    value = factory.Sequence(lambda n: f"handle{n}")


class ChatFactory(DjangoModelFactory[Chat]):
    class Meta:
        model = Chat

    user = factory.SubFactory(UserFactory)
    platform = Platform.WHATSAPP
    platform_chat_id = factory.Sequence(lambda n: f"chat-{n}")
    title = factory.Faker("sentence", nb_words=3)
    kind = ChatKind.DIRECT


class ChatParticipantFactory(DjangoModelFactory[ChatParticipant]):
    class Meta:
        model = ChatParticipant

    chat = factory.SubFactory(ChatFactory)
    person = factory.SubFactory(PersonFactory, user=factory.SelfAttribute("..chat.user"))


class MessageFactory(DjangoModelFactory[Message]):
    class Meta:
        model = Message

    chat = factory.SubFactory(ChatFactory)
    user = factory.SelfAttribute("chat.user")
    platform_message_id = factory.Sequence(lambda n: f"m-{n}")
    sender_person = factory.SubFactory(PersonFactory, user=factory.SelfAttribute("..chat.user"))
    sender_name = factory.SelfAttribute("sender_person.display_name")
    text = factory.Faker("sentence")
    content_hash = factory.LazyAttribute(lambda message: content_hash_of(message.text))
    sent_at = factory.Sequence(
        lambda n: dt.datetime(2026, 1, 1, 9, 0, tzinfo=dt.UTC) + dt.timedelta(minutes=n)
    )
