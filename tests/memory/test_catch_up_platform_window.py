"""A catch-up over a platform or kind of message and a window ("work emails since monday?",
"anything on slack today?"): it is read as a catch-up, reads only that platform in that
window, puts what moved first and states the window and platform read. Sentences and names
are written for the test."""

from __future__ import annotations

import unicodedata

import pytest

from conversations.models import Message
from memory.evidence import _kind_of_chat_ids
from retrieval.compile import _mask, _quoted_spans, classify_intent, messages_platforms
from retrieval.lexicon import fold_text
from retrieval.question_forms import canonical_question
from retrieval.types import Intent
from tests.memory.generalise import Line, Story, dm, group, story_ask, story_ingest


def _intent(question: str) -> Intent:
    folded = fold_text(canonical_question(unicodedata.normalize("NFC", question)))
    return classify_intent(_mask(folded, _quoted_spans(folded)))[0]


@pytest.mark.parametrize(
    "question",
    [
        "work emails since monday?",
        "anything on slack today?",
        "any texts from the family since the weekend",
        "new whatsapp messages this week?",
        "got any emails from Odile lately",
        "anything in the discord server?",
    ],
)
def test_a_kind_of_message_and_a_window_is_a_catch_up(question):
    assert _intent(question) == Intent.CATCH_UP


@pytest.mark.parametrize(
    "question",
    [
        "emails about the boiler warranty",
        "any emails from Odile about the deposit?",
        "what did Odile say in her messages about the car",
        "is Odile on slack?",
    ],
)
def test_messages_about_a_topic_are_no_catch_up(question):
    assert _intent(question) != Intent.CATCH_UP


def test_a_platform_is_read_from_its_messages_without_a_preposition():
    assert messages_platforms("work emails since monday?") == ("email",)
    assert messages_platforms("new slack messages today") == ("slack",)
    assert messages_platforms("any whatsapps from bo") == ("whatsapp",)
    assert messages_platforms("anything on discord this week") == ("discord",)
    assert messages_platforms("any texts from the family since the weekend") == ()
    assert messages_platforms("any messages today?") == ()


CHATS = {
    "Halvard Berg": dm("Halvard Berg", platform="email"),
    "Climbing crew": group("Saoirse Quinn", "Tobiah Lenz"),
    "Ottilie Varga": dm("Ottilie Varga", platform="slack"),
    "Fam 🏠": group("Greta Lind", "Anselm Lind"),
}
BOARD = "Hi, the board review moved from Thu 12 Mar to Tue 17 Mar, 3pm. Room 2B."
OLD_MAIL = "Kickoff notes attached, see you at the offsite"
CLIMBING = "who's in for bouldering on friday evening?"
LUNCH = "Sunday lunch is at 1pm now, can you bring the salad?"
REVIEW = "can you review my pull request on the billing export when you get a sec?"
LINES = (
    Line("Halvard Berg", 10, "Halvard Berg", OLD_MAIL),
    Line("Halvard Berg", 170, "Halvard Berg", BOARD),
    Line("Climbing crew", 175, "Saoirse Quinn", CLIMBING),
    Line("Ottilie Varga", 195, "Ottilie Varga", REVIEW),
    Line("Fam 🏠", 180, "Greta Lind", LUNCH),
)
ASKED = 200  # Tuesday of the second week, 17:00


def _ask(user, question: str):
    story = Story("platform catch-up", CHATS, LINES, question, ASKED, ())
    story_ingest(user, story)
    retrieval = story_ask(user, story)
    texts = [text for text, _labels in retrieval.memory_findings]
    cited = (
        set(
            Message.objects.filter(pk__in=retrieval.memory.message_ids).values_list(
                "text", flat=True
            )
        )
        if retrieval.memory
        else set()
    )
    return retrieval, texts, cited


@pytest.mark.django_db
def test_work_emails_since_a_weekday_read_only_email_in_that_window(user):
    retrieval, texts, cited = _ask(user, "work emails since monday?")

    assert retrieval.compiled.intent == Intent.CATCH_UP
    assert BOARD in cited
    assert OLD_MAIL not in cited
    assert CLIMBING not in cited
    assert REVIEW not in cited
    assert any("on Email" in text for text in texts)
    assert any("17 March" in text for text in texts if text.startswith("Changed:"))


@pytest.mark.django_db
def test_a_platform_today_reads_only_that_platform(user):
    retrieval, texts, cited = _ask(user, "anything on slack today?")

    assert retrieval.compiled.intent == Intent.CATCH_UP
    assert REVIEW in cited
    assert BOARD not in cited
    assert CLIMBING not in cited
    assert any("on Slack" in text for text in texts)


@pytest.mark.django_db
def test_a_platforms_messages_since_a_weekday_leave_other_platforms_out(user):
    _retrieval, _texts, cited = _ask(user, "new whatsapp messages since monday")

    assert CLIMBING in cited
    assert BOARD not in cited
    assert REVIEW not in cited


@pytest.mark.django_db
def test_texts_from_the_family_read_the_familys_group(user):
    _retrieval, _texts, cited = _ask(user, "any texts from the family since monday")

    assert LUNCH in cited
    assert CLIMBING not in cited
    assert BOARD not in cited


@pytest.mark.django_db
def test_a_catch_up_naming_no_kind_of_chat_narrows_nothing(user):
    _retrieval, _texts, cited = _ask(user, "anything new since monday?")

    assert {LUNCH, CLIMBING, BOARD} <= cited
    assert _kind_of_chat_ids(user=user, question="anything new since monday") == set()
    assert _kind_of_chat_ids(user=user, question="catch me up on the climbing crew") == set()
