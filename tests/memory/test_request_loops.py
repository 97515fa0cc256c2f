"""The user's asks of others, answered yes or no: "did Ines get back to me about …?", "has
Ines sent … yet?", "did I ever get …?", "was … ever sorted out?".

An ask stays open while the other side puts it off ("I'll let you know", "end of the week,
promise"); it is closed by a later message from them (in any chat, on any platform, under the
same full name) about the same thing, or by someone answering for them who names them, never
by an unrelated later message. The yes/no reads the closing message and cites it; with nothing
closing it the answer says no and cites the reply that put it off. The cast and sentences are
written for these tests."""

from __future__ import annotations

from datetime import timedelta

import pytest

from conversations.identities import IncomingIdentity
from conversations.models import Chat, ChatKind, Message, MessageKind
from conversations.services import IncomingChat, IncomingMessage, messages_ingest
from memory import services
from memory.extract import is_request_by_user, puts_off
from retrieval.compile import classify_intent
from retrieval.lexicon import fold_text
from retrieval.types import Intent
from tests.memory.generalise import (
    MEDIA,
    MONDAY,
    Line,
    Story,
    dm,
    group,
    story_ask,
    story_failures,
)

pytestmark = pytest.mark.django_db

MON, TUE, WED, THU, FRI = 0, 24, 48, 72, 96

STORIES = (
    Story(
        name="an ask put off with a deferral is still open",
        chats={"ines": dm("Ines")},
        lines=(
            Line("ines", MON + 2, None, "could we push the kitchen deadline by a week?"),
            Line("ines", MON + 2.5, "Ines", "good point, I'll ask the builder and let you know"),
            Line("ines", WED + 4, "Ines", "haha look at this dog"),
        ),
        question="did Ines ever get back to me about the kitchen deadline?",
        asked_hours=THU + 2,
        expect=("No",),
        refuse=("Yes",),
    ),
    Story(
        name="an ask put off with a time is still open",
        chats={"ines": dm("Ines", platform="slack")},
        lines=(
            Line("ines", MON + 2, None, "any ETA on the floor plans? need them for the permit"),
            Line("ines", MON + 2.2, "Ines", "end of the week, promise"),
        ),
        question="Has Ines sent the floor plans yet?",
        asked_hours=WED + 2,
        expect=("No",),
        refuse=("Yes",),
    ),
    Story(
        name="an ask answered in a direct chat on another platform",
        chats={"ines": dm("Ines", platform="slack"), "ines-sms": dm("Ines", platform="sms")},
        lines=(
            Line("ines", MON + 2, None, "any ETA on the floor plans? need them for the permit"),
            Line("ines", MON + 2.2, "Ines", "end of the week, promise"),
            Line("ines-sms", THU + 5, "Ines", "floor plans are in your inbox, the PDF version"),
        ),
        question="did I ever get the floor plans?",
        asked_hours=FRI + 2,
        expect=("Yes", "Ines"),
        refuse=("No",),
    ),
    Story(
        name="a later message about something else in another chat closes nothing",
        chats={"omar": dm("Omar"), "band": group("Lucia", "Teo")},
        lines=(
            Line("omar", MON + 3, None, "could we get a refund for the broken desk chair?"),
            Line("omar", MON + 3.4, "Omar", "I'll check with the shop and let you know"),
            Line("band", WED + 6, "Lucia", "all sorted for Saturday, refund on the deposit too"),
        ),
        question="was the refund for the desk chair ever sorted out?",
        asked_hours=THU + 2,
        expect=("No",),
        refuse=("Yes",),
    ),
    Story(
        name="a promise in a group kept with a file in the direct chat",
        chats={"crew": group("Nia", "Tomas"), "nia": dm("Nia")},
        lines=(
            Line("crew", MON + 2, "Nia", "does anyone have the seating chart for the gala?"),
            Line("crew", MON + 2.1, None, "I'll send you the seating chart tonight Nia"),
            Line("nia", MON + 11, None, MEDIA),
        ),
        question="did I send Nia the seating chart?",
        asked_hours=WED + 2,
        expect=("Yes",),
        refuse=("No",),
    ),
    Story(
        name="a promise in a group kept by a bare 'sent' in the direct chat",
        chats={"crew": group("Nia", "Tomas"), "nia": dm("Nia", platform="signal")},
        lines=(
            Line("crew", MON + 2, "Nia", "does anyone have the seating chart for the gala?"),
            Line("crew", MON + 2.1, None, "I'll send you the seating chart tonight Nia"),
            Line("nia", MON + 11, None, "just sent it!"),
        ),
        question="anything still open with Nia?",
        asked_hours=WED + 2,
        expect=("Nothing",),
    ),
    Story(
        name="an ask in a group answered with a link in the direct chat",
        chats={"crew": group("Nia", "Tomas"), "tomas": dm("Tomas", platform="telegram")},
        lines=(
            Line("crew", MON + 2, None, "Tomas can you share the venue contract?"),
            Line("crew", MON + 2.1, "Tomas", "yep, will share it later today"),
            Line("tomas", MON + 8, "Tomas", "https://files.example.org/d/7f3k2"),
        ),
        question="has Tomas shared the venue contract?",
        asked_hours=WED + 2,
        expect=("Yes", "Tomas"),
        refuse=("No",),
    ),
    Story(
        name="a closing message that says no",
        chats={"omar": dm("Omar"), "omar-mail": dm("Omar", platform="email")},
        lines=(
            Line("omar", MON + 3, None, "can you send me the invoice for the desk chair?"),
            Line("omar", MON + 3.4, "Omar", "will do tomorrow"),
            Line(
                "omar-mail",
                WED + 3,
                "Omar",
                "sorry, the shop can't issue an invoice for the desk chair",
            ),
        ),
        question="has Omar sent the invoice for the desk chair?",
        asked_hours=THU + 2,
        expect=("No", "Omar"),
        refuse=("Yes",),
    ),
)


@pytest.fixture
def noor(user):
    user.first_name = "Noor"
    user.save()
    return user


@pytest.mark.parametrize("story", STORIES, ids=[story.name for story in STORIES])
def test_request_stories(noor, story):
    problems = story_failures(noor, story)
    assert not problems, "; ".join(problems)


def _first_finding_texts(user, story: Story) -> list[str]:
    retrieval = story_ask(user, story)
    assert retrieval.memory is not None and retrieval.memory.findings
    ids = retrieval.memory.findings[0].message_ids
    by_id = dict(Message.objects.filter(pk__in=ids).values_list("pk", "text"))
    return [by_id[pk] for pk in ids if pk in by_id]


def test_a_no_cites_the_reply_that_put_it_off(noor):
    story = STORIES[1]
    assert not story_failures(noor, story)
    assert "end of the week, promise" in _first_finding_texts(noor, story)


def test_a_yes_cites_the_closing_message(noor):
    story = STORIES[2]
    assert not story_failures(noor, story)
    cited = _first_finding_texts(noor, story)
    assert cited[0] == "floor plans are in your inbox, the PDF version"


def _email_chat(address: str, name: str, title: str) -> IncomingChat:
    identity = IncomingIdentity(platform="email", email=address, display_name=name)
    return IncomingChat(
        platform="email",
        platform_chat_id=title,
        title=title,
        kind=ChatKind.DIRECT,
        participants=(identity,),
    )


def _ingest(user, chat: IncomingChat, lines: list[tuple[float, bool, str]]) -> None:
    sender = chat.participants[0]
    messages = [
        (
            chat.platform_chat_id,
            IncomingMessage(
                platform_message_id=f"{chat.platform_chat_id}-{index}",
                sent_at=MONDAY + timedelta(hours=hours),
                text=text,
                sender=None if is_self else sender,
                is_from_self=is_self,
                kind=MessageKind.TEXT,
            ),
        )
        for index, (hours, is_self, text) in enumerate(lines)
    ]
    messages_ingest(user=user, chats=[chat], messages=messages)
    services.memory_refresh(
        user=user, chat_ids=list(Chat.objects.filter(user=user).values_list("pk", flat=True))
    )


def test_the_same_full_name_by_email_keeps_the_promise(noor):
    """Two contacts saved as "Ines Duarte" (a phone chat and an email address) are one person
    when she delivers by email what she promised in the chat."""
    phone = IncomingIdentity(platform="whatsapp", phone="+351910000111", display_name="Ines Duarte")
    chat = IncomingChat(
        platform="whatsapp",
        platform_chat_id="ines-wa",
        title="Ines Duarte",
        kind=ChatKind.DIRECT,
        participants=(phone,),
    )
    _ingest(
        noor,
        chat,
        [
            (MON + 2, True, "could you send me the survey results? need them for Thursday"),
            (MON + 2.3, False, "will send them tomorrow"),
        ],
    )
    _ingest(
        noor,
        _email_chat("ines@studio.example", "Ines Duarte", "Survey results"),
        [(TUE + 5, False, "Hi Noor, attached are the survey results. Ines")],
    )
    story = Story(
        name="",
        chats={},
        lines=(),
        question="did I ever get the survey results?",
        asked_hours=WED + 2,
        expect=(),
    )
    retrieval = story_ask(noor, story)
    first = retrieval.memory.findings[0].text if retrieval.memory else ""
    assert first.startswith("Yes"), first


def _landlord_asked(user) -> None:
    """Noor asks her landlord for a rent discount; he puts it off."""
    landlord = IncomingIdentity(platform="sms", phone="+351910000222", display_name="Rafael")
    chat = IncomingChat(
        platform="sms",
        platform_chat_id="rafael",
        title="Rafael",
        kind=ChatKind.DIRECT,
        participants=(landlord,),
    )
    _ingest(
        user,
        chat,
        [
            (MON + 2, True, "the heating is broken again, could we discuss a rent discount?"),
            (MON + 2.3, False, "I'll talk to the agency and let you know"),
        ],
    )


def _asked_whether_settled(user) -> str:
    """The first finding of "was the rent discount … sorted out?" on Thursday."""
    story = Story(
        name="",
        chats={},
        lines=(),
        question="was the rent discount for the heating ever sorted out?",
        asked_hours=THU + 2,
        expect=(),
    )
    retrieval = story_ask(user, story)
    return retrieval.memory.findings[0].text if retrieval.memory else ""


def test_someone_answering_for_the_person_names_them(noor):
    """The agency answers the ask made to the landlord, naming him: it closes it."""
    _landlord_asked(noor)
    _ingest(
        noor,
        _email_chat("desk@agency.example", "Lettings Desk", "Heating"),
        [(WED + 5, False, "As Rafael asked, we approved a rent discount for the heating outage.")],
    )
    first = _asked_whether_settled(noor)
    assert first.startswith("Yes"), first


def test_a_friend_asking_about_it_closes_nothing(noor):
    """A friend asking whether the landlord answered names him and the topic, and is no
    answer."""
    _landlord_asked(noor)
    friend = IncomingIdentity(platform="sms", phone="+351910000333", display_name="Bea")
    chat = IncomingChat(
        platform="sms",
        platform_chat_id="bea",
        title="Bea",
        kind=ChatKind.DIRECT,
        participants=(friend,),
    )
    _ingest(
        noor, chat, [(WED + 5, False, "brr, did Rafael ever agree to the heating rent discount?")]
    )
    first = _asked_whether_settled(noor)
    assert first.startswith("No"), first


@pytest.mark.parametrize(
    "text",
    [
        "I'll ask around and let you know",
        "end of next week, promise",
        "will send it tonight",
        "not yet, still working on it",
        "ci penso io, ti faccio sapere",
    ],
)
def test_replies_that_put_an_ask_off(text):
    assert puts_off(text)


@pytest.mark.parametrize(
    "text", ["yes that works for me", "here are the numbers", "no, sorry, the budget is spent"]
)
def test_replies_that_answer_an_ask(text):
    assert not puts_off(text)


@pytest.mark.parametrize(
    ("text", "is_request"),
    [
        ("could we talk about moving the meeting?", True),
        ("any ETA on the quote?", True),
        ("any news on the visa?", True),
        ("did you get a chance to look at my draft?", True),
        ("when can we expect the quote?", True),
        ("can I borrow your drill this weekend?", True),
        ("we could talk tomorrow", False),
        ("the news was good", False),
    ],
)
def test_asks_by_the_user(text, is_request):
    assert is_request_by_user(text) is is_request


@pytest.mark.parametrize(
    "question",
    [
        "did I ever get the quote from the roofer?",
        "have I heard back about the visa?",
        "was the refund ever sorted out?",
        "has the leak in the bathroom been fixed?",
    ],
)
def test_questions_about_one_ask_are_unresolved(question):
    intent, _name = classify_intent(fold_text(question))
    assert intent == Intent.UNRESOLVED
