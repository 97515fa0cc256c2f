"""A recipient named in lower case, by a short form or by a word the language also uses
("text sam ...", "remind jo ...", "tell will ...") is the same contact as when capitalised:
resolved against the user's own contacts and the names the user calls them by, never against
a word list, and never an ordinary word that no contact holds."""

from __future__ import annotations

from datetime import timedelta

import pytest

from conversations.models import Chat
from memory import services as memory_services
from proposals.models import Proposal
from tests.memory.helpers import chat_of, ingest, say
from tests.proposals.support import NOW, propose

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)
MINUTE = timedelta(minutes=1)


def contacts_history(user) -> None:
    """Direct chats with Samira Holt (called "sam"), Josefine Brandt (called "Jo" by the user
    only), Will Ferreira and Mark Oduya (first names the language also uses), My Tran (a first
    name that is also "my")."""
    ingest(
        user,
        chat_of("dm-samira", "Samira Holt"),
        say("s1", NOW - 3 * DAY, "hey sam, still on for the pottery class?"),
        say("s2", NOW - 3 * DAY + 4 * MINUTE, "yes, Thursday", sender="Samira Holt"),
    )
    ingest(
        user,
        chat_of("dm-josefine", "Josefine Brandt"),
        say("j1", NOW - 2 * DAY, "hey jo, did the parcel arrive?"),
        say("j2", NOW - 2 * DAY + 4 * MINUTE, "not yet", sender="Josefine Brandt"),
    )
    ingest(
        user,
        chat_of("dm-will", "Will Ferreira"),
        say("w1", NOW - 2 * DAY, "are you coming to the match on saturday"),
        say("w2", NOW - 2 * DAY + 4 * MINUTE, "maybe", sender="Will Ferreira"),
    )
    ingest(
        user,
        chat_of("dm-mark", "Mark Oduya", platform="telegram"),
        say("k1", NOW - 2 * DAY, "Mark, the invoice is in your inbox", platform="telegram"),
        say("k2", NOW - 2 * DAY + 4 * MINUTE, "ta", sender="Mark Oduya", platform="telegram"),
    )
    ingest(
        user,
        chat_of("dm-my", "My Tran"),
        say("m1", NOW - DAY, "My, lunch on friday?"),
        say("m2", NOW - DAY + 4 * MINUTE, "sure", sender="My Tran"),
    )
    memory_services.memory_refresh(
        user=user, chat_ids=list(Chat.objects.filter(user=user).values_list("pk", flat=True))
    )


def destination(view) -> tuple[str, str]:
    assert view is not None
    proposal = Proposal.objects.select_related("destination_chat", "destination_person").get(
        pk=view.proposal_id
    )
    assert proposal.destination_person is not None
    return proposal.destination_chat.platform_chat_id, proposal.destination_person.display_name


@pytest.mark.parametrize(
    ("question", "chat_id", "greeting"),
    [
        # A short form of three letters or more, lower and upper case.
        ("text sam I'm running ten minutes late", "dm-samira", "Hey Sam,"),
        ("Text Sam I'm running ten minutes late", "dm-samira", "Hey Sam,"),
        ("can you remind sam to bring the clay tools", "dm-samira", "Hey Sam,"),
        # Two letters: the name the user calls her by in their own messages.
        ("remind jo to check the parcel tracking", "dm-josefine", "Hey Jo,"),
        ("Remind Jo to check the parcel tracking", "dm-josefine", "Hey Jo,"),
        ("ping jo about the parcel from Berlin", "dm-josefine", "Hey Jo,"),
        ("dile a jo que el paquete llega el lunes", "dm-josefine", "Hey Jo,"),
        # A first name that is also a word, exactly a contact's first name.
        ("tell will I can't make it on Saturday", "dm-will", "Hi Will,"),
        ("tell will I can't make it", "dm-will", "Hi Will,"),
        ("Tell Will I can't make it", "dm-will", "Hi Will,"),
        ("telegram mark that the invoice is paid", "dm-mark", "Mark,"),
    ],
)
def test_a_lowercase_or_short_name_reaches_the_same_contact(user, question, chat_id, greeting):
    contacts_history(user)
    view = propose(user, question, now=NOW)
    assert destination(view)[0] == chat_id
    assert view is not None
    assert view.draft_text.startswith(greeting)


@pytest.mark.parametrize(
    "question",
    [
        # No contact is called any of these words.
        "text the plumber I'll be late",
        "tell them I'm running late",
        "remind everyone the match moved",
        # "my" opens a noun phrase even though a contact's first name is My.
        "text my landlord the heating is off",
    ],
)
def test_an_ordinary_word_is_no_recipient(user, question):
    contacts_history(user)
    assert propose(user, question, now=NOW) is None


def test_a_word_no_contact_holds_resolves_to_no_one_even_at_the_recipients_place(user):
    ingest(
        user,
        chat_of("dm-ana", "Ana Lima"),
        say("a1", NOW - DAY, "hi Ana, will you be around later?"),
    )
    memory_services.memory_refresh(
        user=user, chat_ids=list(Chat.objects.filter(user=user).values_list("pk", flat=True))
    )
    assert propose(user, "tell will I can't make it", now=NOW) is None
    assert destination(propose(user, "tell ana I can't make it", now=NOW))[0] == "dm-ana"
