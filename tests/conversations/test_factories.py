import pytest

from conversations.models import Message
from tests.factories import MessageFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_message_factory_keeps_one_owner_throughout():
    message = MessageFactory()
    assert message.user == message.chat.user == message.sender_person.user


def test_user_factory_password_signs_in(client):
    user = UserFactory()
    assert client.login(username=user.email, password="correct horse battery staple")


def test_search_vector_is_maintained_by_the_database():
    message = MessageFactory(text="Dinner on Friday at the taberna")
    assert Message.objects.filter(pk=message.pk, search_vector="dinner").exists()
    Message.objects.filter(pk=message.pk).update(text="Lunch instead")
    assert not Message.objects.filter(pk=message.pk, search_vector="dinner").exists()
