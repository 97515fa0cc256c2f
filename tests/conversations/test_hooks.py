"""The declared conversation hooks: called in order inside the writing transaction, and each
schedules its work once per user after the commit (never after a rollback)."""

import pytest
from django.db import transaction

from conversations.hooks import ChatExclusionChange, MessagesChange
from conversations.models import Chat, Message
from conversations.services import chat_set_excluded_from_ai
from tests.indexing.support import ingest, message

pytestmark = pytest.mark.django_db

HOOKS = ["tests.conversations.test_hooks.first", "tests.conversations.test_hooks.second"]


class RecordingHook:
    def __init__(self, name: str) -> None:
        self.name = name
        self.calls: list[tuple[str, object]] = []

    def messages_changed(self, change: MessagesChange):
        # Runs inside the write: the rows it reports on are visible, not yet committed.
        assert transaction.get_connection().in_atomic_block
        self.calls.append(("messages_changed", change))
        return set(
            Message.objects.filter(pk__in=change.created_ids).values_list("chat_id", flat=True)
        )

    def chat_exclusion_changed(self, change: ChatExclusionChange):
        self.calls.append(("chat_exclusion_changed", change))
        return {change.chat_id}

    def schedule(self, *, user_id: int, keys: frozenset[int]) -> None:
        self.calls.append(("schedule", (user_id, sorted(keys))))


first = RecordingHook("first")
second = RecordingHook("second")


@pytest.fixture(autouse=True)
def _declared_hooks(settings):
    settings.CONVERSATION_HOOKS = HOOKS
    first.calls.clear()
    second.calls.clear()


def test_every_declared_hook_sees_the_change_then_schedules_after_commit(
    user, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as callbacks:
        ingest(user, [message(1), message(2)])
    created = tuple(Message.objects.filter(user=user).order_by("pk").values_list("pk", flat=True))
    for hook in (first, second):
        assert hook.calls == [
            ("messages_changed", MessagesChange(user_id=user.pk, created_ids=created)),
        ]
    for callback in callbacks:
        callback()
    chat = Chat.objects.get(user=user)
    assert first.calls[-1] == ("schedule", (user.pk, [chat.pk]))
    assert second.calls[-1] == ("schedule", (user.pk, [chat.pk]))


def test_one_schedule_per_hook_and_user_however_many_ingests_a_transaction_makes(
    user, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        ingest(user, [message(1)], chat="a")
        ingest(user, [message(2)], chat="b")
        ingest(user, [message(3)], chat="a")
    chat_ids = sorted(Chat.objects.filter(user=user).values_list("pk", flat=True))
    schedules = [call for call in first.calls if call[0] == "schedule"]
    assert schedules == [("schedule", (user.pk, chat_ids))]


def test_a_rolled_back_ingest_schedules_nothing(user, django_capture_on_commit_callbacks):
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        ingest(user, [message(1)])
        raise RuntimeError("the import failed later")
    assert callbacks == []
    assert [call[0] for call in first.calls] == ["messages_changed"]
    assert not Message.objects.filter(user=user).exists()


def test_an_unchanged_reingest_calls_the_hooks_not_at_all(user):
    ingest(user, [message(1)])
    first.calls.clear()
    ingest(user, [message(1)])
    assert first.calls == []


def test_the_ai_switch_goes_through_the_same_hooks(user, django_capture_on_commit_callbacks):
    ingest(user, [message(1)])
    chat = Chat.objects.get(user=user)
    first.calls.clear()
    with django_capture_on_commit_callbacks(execute=True):
        chat_set_excluded_from_ai(chat=chat, is_excluded=True)
    assert first.calls == [
        (
            "chat_exclusion_changed",
            ChatExclusionChange(user_id=user.pk, chat_id=chat.pk, is_excluded=True),
        ),
        ("schedule", (user.pk, [chat.pk])),
    ]
