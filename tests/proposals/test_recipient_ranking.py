"""Who a request's name means when it fits a bot, a stranger or several friends: a real person
the user writes to, who took part in what the request is about; a short form at the
recipient's place ("tell ros ...") names the contact it begins. And the messages the request
follows up: the plan a weekday in the request points at is cited."""

from __future__ import annotations

from datetime import timedelta

import pytest

from conversations.identities import IncomingIdentity
from conversations.models import Chat, ChatKind, Message
from conversations.services import IncomingChat, IncomingMessage
from memory import services as memory_services
from memory.followup import action_follow_up
from memory.recipient import recipient_slot
from proposals.models import Proposal
from retrieval.compile import compile_question
from retrieval.types import Scope
from tests.memory.helpers import chat_of, ingest, person_identity, say
from tests.proposals.support import NOW, person, propose

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)
BOT = IncomingIdentity(
    platform="whatsapp", handle="@quizzy_helper_bot", display_name="Quiz Night Bot"
)


def group(chat_id: str, title: str, *members: str) -> IncomingChat:
    return IncomingChat(
        platform="whatsapp",
        platform_chat_id=chat_id,
        title=title,
        kind=ChatKind.GROUP,
        participants=tuple(person_identity(name) for name in members),
    )


def from_bot(message_id: str, sent_at, text: str) -> IncomingMessage:
    return IncomingMessage(platform_message_id=message_id, sent_at=sent_at, text=text, sender=BOT)


def refresh(user) -> None:
    memory_services.memory_refresh(
        user=user, chat_ids=list(Chat.objects.filter(user=user).values_list("pk", flat=True))
    )


def quiz_history(user) -> None:
    """A quiz group with a bot, Rosalind (met only there) and Tamsin; a direct chat with
    Rosamund about work."""
    ingest(
        user,
        group("grp-quiz", "Quiz Night Regulars", "Rosalind Achterberg", "Tamsin Oakes"),
        say(
            "q1",
            NOW - 6 * DAY,
            "quiz night this month: fri the 13th or the week after?",
            sender="Rosalind Achterberg",
        ),
        say("q2", NOW - 6 * DAY + timedelta(minutes=5), "in either way", sender="Tamsin Oakes"),
        from_bot("q3", NOW - 5 * DAY, "Quiz night reminder! Vote in the poll."),
        say("q4", NOW - 5 * DAY + timedelta(hours=1), "week after is easier for me"),
    )
    ingest(
        user,
        chat_of("dm-rosamund", "Rosamund Pell"),
        say("r1", NOW - 2 * DAY, "Hi Rosamund, the budget sheet is in the shared drive"),
        say(
            "r2",
            NOW - 2 * DAY + timedelta(minutes=3),
            "Thanks, will review the budget",
            sender="Rosamund Pell",
        ),
    )
    refresh(user)


def proposal_of(view) -> Proposal:
    assert view is not None
    return Proposal.objects.select_related("destination_chat", "destination_person").get(
        pk=view.proposal_id
    )


def test_a_short_form_names_the_friend_not_the_bot_the_topic_words_fit(user):
    quiz_history(user)

    proposal = proposal_of(
        propose(user, "tell ros the week after works better for me for quiz night")
    )

    assert proposal.destination_person == person(user, "Rosalind Achterberg")
    assert proposal.destination_chat.platform_chat_id == "grp-quiz"
    assert proposal.payload["text"].startswith("Hi Ros,")
    assert "The week after works better for me for quiz night." in proposal.payload["text"]


def test_a_short_form_shared_by_two_contacts_picks_who_took_part_in_the_topic(user):
    quiz_history(user)

    about_quiz = proposal_of(propose(user, "tell ros fri works for quiz night", request_id="q"))
    about_budget = proposal_of(propose(user, "tell ros the budget review can wait", request_id="b"))

    assert about_quiz.destination_person == person(user, "Rosalind Achterberg")
    assert about_budget.destination_person == person(user, "Rosamund Pell")


def test_a_bot_is_never_the_recipient(user):
    quiz_history(user)

    proposal = proposal_of(propose(user, "remind the quiz night group to vote"))

    assert proposal.destination_person is None
    assert proposal.destination_chat.platform_chat_id == "grp-quiz"
    assert "Bot" not in proposal.payload["text"]


def test_a_stranger_the_user_never_wrote_to_loses_to_the_contact_of_that_name(user):
    ingest(
        user,
        chat_of("dm-wendell", "Dr. Wendell Price"),
        say("w1", NOW - 3 * DAY, "Morning Dr Price, the forms are signed"),
        say("w2", NOW - 3 * DAY + timedelta(hours=1), "Great, thanks", sender="Dr. Wendell Price"),
    )
    imitation = IncomingChat(
        platform="email",
        platform_chat_id="mail-favour",
        title="Quick favour",
        kind=ChatKind.DIRECT,
        participants=(
            IncomingIdentity(
                platform="email", email="w.price.md@example.net", display_name="Dr. Wendell Price"
            ),
        ),
    )
    ingest(
        user,
        imitation,
        IncomingMessage(
            platform_message_id="f1",
            sent_at=NOW - DAY,
            text="Are you free? I need a small favour",
            sender=imitation.participants[0],
        ),
    )
    refresh(user)

    proposal = proposal_of(propose(user, "reply to Dr Price by email that the forms are signed"))

    assert proposal.destination_chat.platform_chat_id == "dm-wendell"


@pytest.mark.parametrize(
    ("question", "word"),
    [
        ("tell ros the week after works", "ros"),
        ("could you draft a quick reply to dr price on slack", "price"),
        ("let Tamsin know I'm in", "tamsin"),
        ("remind the quiz group about friday", "quiz"),
        ("what did ros say about the quiz", None),
    ],
)
def test_the_recipients_place_is_the_word_after_the_verb_of_asking(question, word):
    slot = recipient_slot(question)
    assert (slot.word if slot else None) == word


def test_the_plan_a_weekday_in_the_request_points_at_is_followed_up(user):
    ingest(
        user,
        chat_of("dm-tamsin", "Tamsin Oakes"),
        say(
            "t1",
            NOW - 9 * DAY,
            "Loved the pottery class, the glaze came out great",
            sender="Tamsin Oakes",
        ),
        say("t2", NOW - 9 * DAY + timedelta(hours=1), "Same here, my bowl survived the kiln"),
        say("t3", NOW - 2 * DAY, "pool thu 6:15?"),
        say("t4", NOW - 2 * DAY + timedelta(minutes=4), "thu 6:15 ok", sender="Tamsin Oakes"),
    )
    refresh(user)
    question = "let Tamsin know I can't make thursday swimming, the car broke down"
    compiled = compile_question(user=user, question=question, now=NOW, scope=Scope.everywhere())

    followed = action_follow_up(user=user, compiled=compiled, now=NOW)

    cited = set(
        Message.objects.filter(pk__in=followed.thread).values_list("platform_message_id", flat=True)
    )
    assert "t4" in cited


def test_a_weekday_from_another_week_is_no_plan(user):
    ingest(
        user,
        chat_of("dm-tamsin", "Tamsin Oakes"),
        say("t3", NOW - 12 * DAY, "pool thu 6:15?"),
        say("t4", NOW - 12 * DAY + timedelta(minutes=4), "thu 6:15 ok", sender="Tamsin Oakes"),
        say(
            "t5",
            NOW - 11 * DAY,
            "Great swim today, see you at the next one then",
            sender="Tamsin Oakes",
        ),
    )
    refresh(user)
    question = "let Tamsin know I can't make thursday swimming"
    compiled = compile_question(user=user, question=question, now=NOW, scope=Scope.everywhere())

    followed = action_follow_up(user=user, compiled=compiled, now=NOW)

    cited = set(
        Message.objects.filter(pk__in=followed.thread).values_list("platform_message_id", flat=True)
    )
    assert "t4" not in cited


def test_a_platform_asked_for_reaches_the_same_person_saved_there_without_the_title(user):
    ingest(
        user,
        chat_of("dm-wendell", "Dr. Wendell Price", platform="slack"),
        say("w1", NOW - 3 * DAY, "Morning Dr Price, the forms are signed", platform="slack"),
    )
    thread = IncomingChat(
        platform="email",
        platform_chat_id="mail-forms",
        title="Forms for the renewal",
        kind=ChatKind.DIRECT,
        participants=(
            IncomingIdentity(
                platform="email", email="wprice@example.org", display_name="Wendell Price"
            ),
        ),
    )
    ingest(
        user,
        thread,
        IncomingMessage(
            platform_message_id="e1",
            sent_at=NOW - 2 * DAY,
            text="Dear Dr. Price, please find the forms attached.",
            is_from_self=True,
        ),
    )
    refresh(user)

    by_email = proposal_of(propose(user, "reply to Dr Price by email that the forms are signed"))
    on_slack = proposal_of(
        propose(user, "reply to Dr Price on slack that the forms are signed", request_id="s")
    )

    assert by_email.destination_chat.platform_chat_id == "mail-forms"
    assert on_slack.destination_chat.platform_chat_id == "dm-wendell"
