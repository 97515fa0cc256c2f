"""A handle that is a known contact: people a Discord or Slack group shows only by a handle,
linked to the contact the user already has by name on another platform when the handle is a
form of that name or the group calls its author by it. The history is written for these tests
(an owner in Lisbon; nobody from an evaluation corpus)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from conversations.identities import IncomingIdentity
from conversations.models import Chat, ChatKind, Message
from conversations.services import IncomingChat, IncomingMessage, messages_ingest
from memory import services
from memory.handles import (
    ChatLine,
    claims_place,
    handle_fits_name,
    handle_parts,
    place_owner_names,
    told_names,
)
from memory.models import PersonMerge
from retrieval.evidence import EvidenceLimits
from retrieval.pipeline import retrieve
from retrieval.types import Scope

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)
NOW = T0 + timedelta(days=20)
LIMITS = EvidenceLimits(max_sources=8, max_tokens=6000)


def _phone(number: str, name: str, platform: str = "whatsapp") -> IncomingIdentity:
    return IncomingIdentity(platform=platform, phone=number, display_name=name)


def _handle(handle: str, user_id: str, platform: str = "discord") -> IncomingIdentity:
    return IncomingIdentity(
        platform=platform, platform_user_id=user_id, handle=handle, display_name=handle
    )


RAFA = _phone("+351 912 000 101", "Rafa Moreno")
INES = _phone("+351 912 000 102", "Ines Calder", platform="signal")
TOBI = _phone("+351 912 000 103", "Tobi 🦊", platform="imessage")
HANA = IncomingIdentity(platform="telegram", platform_user_id="tg-hana", display_name="Hana Price")
OSKAR = _phone("+351 912 000 105", "Oskar Lind")
PRITI = _phone("+351 912 000 106", "Priti Shah")
JONAS_W = _phone("+351 912 000 107", "Jonas Weir")
JONAS_A = _phone("+351 912 000 108", "Jonas Wall", platform="signal")
SAM = _phone("+351 912 000 109", "Sam Rook")

RAFAM = _handle("rafam", "d-1")
INES_C = _handle("ines.calder99", "d-2")
TOBIK = _handle("tobik", "d-3")
MOTH = _handle("mothwing", "d-4")
FOX = _handle("quietfox", "d-5")
KETTLE = _handle("bluekettle", "d-6")
JONASW = _handle("jonasw", "d-7")
SAMURAI = _handle("samurai77", "d-8")
OWL = _handle("nightowl", "d-9")


def _chat(chat_id: str, platform: str, *members: IncomingIdentity, title: str = "") -> IncomingChat:
    return IncomingChat(
        platform=platform,
        platform_chat_id=chat_id,
        title=title or chat_id,
        kind=ChatKind.GROUP if len(members) > 1 else ChatKind.DIRECT,
        participants=members,
    )


def _said(
    message_id: str, hours: float, text: str, sender: IncomingIdentity | None = None
) -> IncomingMessage:
    return IncomingMessage(
        platform_message_id=message_id,
        sent_at=T0 + timedelta(hours=hours),
        text=text,
        sender=sender,
        is_from_self=sender is None,
    )


DIRECT_CHATS = tuple(
    (_chat(f"dm-{index}", person.platform, person), (_said(f"dm{index}", index, "hey!", person),))
    for index, person in enumerate((RAFA, INES, TOBI, HANA, OSKAR, PRITI, JONAS_W, JONAS_A, SAM))
)
RAIDERS = (
    _chat(
        "dc-raiders",
        "discord",
        RAFAM,
        INES_C,
        TOBIK,
        MOTH,
        FOX,
        KETTLE,
        JONASW,
        SAMURAI,
        OWL,
        title="Pixel Raiders · #lobby",
    ),
    (
        _said("r1", 30, "who's up for the co-op campaign friday?", RAFAM),
        _said("r2", 30.2, "me! 🙋", INES_C),
        _said("r3", 30.3, "can we play at Hana's? her screen is huge", TOBIK),
        _said("r4", 30.4, "sure, my place! bring snacks", MOTH),
        _said("r5", 31, "I'll bring the controllers and the spare headset", FOX),
        _said("r6", 31.1, "thanks Oskar!"),
        _said("r7", 32, "this is Priti btw, new account", KETTLE),
        _said("r8", 33, "lag was awful last night", OWL),
        _said("r9", 33.1, "thanks Jonas, I'll check the router"),
        _said("r10", 34, "gg everyone", SAMURAI),
        _said("r11", 34.5, "gg", JONASW),
        _said("r12", 35, "rematch sunday", RAFAM),
        _said("r13", 35.5, "rematch!!", RAFAM),
    ),
)


def _load(user, chats=(*DIRECT_CHATS, RAIDERS)) -> None:
    for chat, messages in chats:
        messages_ingest(
            user=user, chats=[chat], messages=[(chat.platform_chat_id, m) for m in messages]
        )
    services.memory_refresh(
        user=user, chat_ids=list(Chat.objects.filter(user=user).values_list("pk", flat=True))
    )


def _links(user) -> dict[str, str]:
    return {
        merge.merged_person.display_name: merge.kept_person.display_name
        for merge in PersonMerge.objects.filter(user=user, split_at__isnull=True)
    }


# --- The handle's form -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("handle", "name"),
    [
        ("rafam", "Rafa Moreno"),  # first name and surname initial
        ("rafmo", "Rafa Moreno"),  # a start of each
        ("ines.calder99", "Ines Calder"),  # first.last with digits
        ("calder_ines", "Ines Calder"),  # last_first
        ("icalder", "Ines Calder"),  # first initial and surname
        ("@Oskar_L", "Oskar Lind"),  # first_initial
        ("tobik", "Tobi 🦊"),  # a one-word name and a surname initial
        ("priti", "Priti Shah"),  # the first name alone
        ("4priti", "Priti Shah"),
        ("chidi", "Dr. Chidi Obi"),  # the title is no part
    ],
)
def test_a_handle_fits_forms_of_a_name(handle, name):
    assert handle_fits_name(handle, name)


@pytest.mark.parametrize(
    ("handle", "name"),
    [
        ("samurai77", "Sam Rook"),  # starts with the name, goes on with no surname
        ("samurai", "Sam"),  # more than one letter after a one-word name
        ("rafael", "Rafa Moreno"),
        ("mothwing", "Hana Price"),
        ("ra", "Ra"),  # too short to say anything
        ("r4fam", "Rafa Moreno"),  # a digit inside
        ("oslind", "Oskar Lind"),  # two letters of the first name are no start of it
        ("inesxcalder", "Ines Calder"),
    ],
)
def test_a_handle_that_only_starts_like_a_name_does_not_fit(handle, name):
    assert not handle_fits_name(handle, name)


def test_handle_parts_drop_the_at_sign_digits_at_the_ends_and_separators():
    assert handle_parts("@Ana_Lima92") == ("ana", "lima")
    assert handle_parts("99.tobi.k") == ("tobi", "k")
    assert handle_parts("d3lan") == ()


# --- What the group calls a handle -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("movie night at Lena's?", ("Lena",)),
        ("we could use Lena's place this time", ("Lena",)),
        ("on se retrouve chez Lena ?", ("Lena",)),
        ("y si lo hacemos en casa de Lena", ("Lena",)),
    ],
)
def test_a_place_named_as_someones(text, names):
    assert place_owner_names(text) == names


@pytest.mark.parametrize(
    "text",
    [
        "sure, my place!",
        "ok mine works",
        "yes at mine",
        "oui chez moi",
        "vale, en mi casa",
        "di rumahku aja",
    ],
)
def test_an_answer_that_takes_the_place_as_ones_own(text):
    assert claims_place(text)


@pytest.mark.parametrize(
    "text", ["I love Lena's cooking", "my bad", "is that mine or yours?", "place your bets"]
)
def test_no_place_of_anyone_and_no_claim(text):
    assert place_owner_names(text) == ()
    assert not claims_place(text)


def test_told_names_reads_self_address_thanks_and_places():
    lines = [
        ChatLine(1, 11, "I fixed the printer"),
        ChatLine(2, 0, "thanks Mara!"),
        ChatLine(3, 12, "it's Wes btw"),
        ChatLine(4, 13, "dinner at Ivo's?"),
        ChatLine(5, 14, "yes my place, 8pm"),
    ]
    assert [(t.person_id, t.name, t.message_id) for t in told_names(lines)] == [
        (11, "Mara", 2),
        (12, "Wes", 3),
        (14, "Ivo", 5),
    ]


def test_told_names_reads_no_address_of_the_user_and_no_talk_about_someone():
    lines = [
        ChatLine(1, 0, "I fixed the printer"),
        ChatLine(2, 11, "thanks Mara!"),  # thanks the user, who is nobody's handle
        ChatLine(3, 12, "I love Ivo's cooking"),
        ChatLine(4, 13, "same"),
        ChatLine(5, 12, "dinner at Ivo's?"),
        ChatLine(6, 13, "sounds good"),
    ]
    assert told_names(lines) == []


# --- Links in memory -------------------------------------------------------------------------


def test_handles_link_to_the_one_contact_their_form_or_the_group_names(user):
    _load(user)
    links = _links(user)
    assert links == {
        "rafam": "Rafa Moreno",
        "ines.calder99": "Ines Calder",
        "tobik": "Tobi 🦊",
        "mothwing": "Hana Price",
        "quietfox": "Oskar Lind",
        "bluekettle": "Priti Shah",
    }
    # Two Jonases: neither the handle "jonasw" nor "thanks Jonas" links anyone.
    assert "jonasw" not in links and "nightowl" not in links
    # "samurai77" only starts like Sam.
    assert "samurai77" not in links
    moth = PersonMerge.objects.get(user=user, merged_person__display_name="mothwing")
    assert moth.evidence_message_ids == [
        Message.objects.get(user=user, platform_message_id="r4").pk
    ]
    assert "Hana" in moth.reason


def test_a_contact_in_the_same_group_or_on_the_same_platform_is_not_the_handle(user):
    rafa_on_discord = IncomingIdentity(
        platform="discord", platform_user_id="d-50", handle="rmoreno", display_name="Rafa Moreno"
    )
    group = (
        _chat("dc-two", "discord", RAFAM, rafa_on_discord, title="two rafas"),
        (_said("t1", 1, "hi", RAFAM), _said("t2", 2, "hello", rafa_on_discord)),
    )
    _load(user, chats=(DIRECT_CHATS[0], group))
    assert "rafam" not in _links(user)


def test_a_handle_two_contacts_fit_links_nobody(user):
    ana_m = _phone("+351 912 000 201", "Ana Mendes")
    ana_m2 = _phone("+351 912 000 202", "Ana Matos", platform="signal")
    handle = _handle("anam", "d-60")
    group = (
        _chat("dc-ana", "discord", handle, FOX, title="ana"),
        (_said("a1", 1, "hi all", handle),),
    )
    chats = (
        (_chat("dm-am", "whatsapp", ana_m), (_said("x1", 0, "hey", ana_m),)),
        (_chat("dm-am2", "signal", ana_m2), (_said("x2", 0, "hey", ana_m2),)),
        group,
    )
    _load(user, chats=chats)
    assert _links(user) == {}


def test_a_link_is_split_like_any_merge_and_never_made_again(user):
    _load(user)
    merge = PersonMerge.objects.get(user=user, merged_person__display_name="rafam")
    services.person_split(user=user, merge_id=merge.pk, now=NOW)
    assert services.handle_links_merge(user=user) == 0
    assert "rafam" not in _links(user)


def test_a_ranking_in_the_group_counts_people_and_shows_the_name_with_the_handle(user):
    _load(user)
    retrieval = retrieve(
        user=user,
        question="who posts the most in Pixel Raiders?",
        now=NOW,
        scope=Scope.everywhere(),
        evidence_limits=LIMITS,
    )
    text = "\n".join(text for text, _ in retrieval.memory_findings)
    assert "1. Rafa Moreno (rafam): 3 messages" in text


def test_a_question_naming_the_contact_reads_what_they_wrote_under_the_handle(user):
    _load(user)
    retrieval = retrieve(
        user=user,
        question="what did Oskar say he'd bring?",
        now=NOW,
        scope=Scope.everywhere(),
        evidence_limits=LIMITS,
    )
    said = Message.objects.get(user=user, platform_message_id="r5").pk
    shown = {
        m.sender_name
        for source in retrieval.pack.sources
        for m in source.messages
        if m.message_id == said
    }
    # Read under the handle, shown with the contact's name.
    assert shown == {"Oskar Lind (quietfox)"}


def test_a_handle_nobody_is_linked_to_is_shown_as_it_is(user):
    _load(user)
    retrieval = retrieve(
        user=user,
        question="what did nightowl say about the lag?",
        now=NOW,
        scope=Scope.everywhere(),
        evidence_limits=LIMITS,
    )
    names = {m.sender_name for source in retrieval.pack.sources for m in source.messages}
    assert "nightowl" in names
    assert not any("(nightowl)" in name for name in names)


def test_who_a_handle_is_and_whether_it_is_the_contact_say_how_memory_linked_them(user):
    _load(user)
    who = retrieve(
        user=user,
        question="who is rafam?",
        now=NOW,
        scope=Scope.everywhere(),
        evidence_limits=LIMITS,
    )
    said = "\n".join(text for text, _ in who.memory_findings)
    assert "rafam is also saved as Rafa Moreno" in said
    assert "the handle rafam on Discord is a form of the name Rafa Moreno" in said
    assert "phone number" not in said
    same = retrieve(
        user=user,
        question="is mothwing the same person as Hana Price?",
        now=NOW,
        scope=Scope.everywhere(),
        evidence_limits=LIMITS,
    )
    said = "\n".join(text for text, _ in same.memory_findings)
    assert said.startswith("Yes:")
    assert "in a group they were called Hana" in said
    assert "phone number" not in said


def test_a_first_name_alone_links_only_in_a_small_group_the_user_writes_in(user):
    wanda = _phone("+351 912 000 301", "Wanda Holt")
    greta = _phone("+351 912 000 302", "Greta Nyberg", platform="signal")
    crowd = [_handle(f"member{index}x", f"s-{index}", platform="slack") for index in range(11)]
    wanda_handle = _handle("wanda", "s-w", platform="slack")
    greta_handle = _handle("greta.n", "s-g", platform="slack")
    channel = (
        _chat("sl-all", "slack", wanda_handle, greta_handle, *crowd, title="#all-hands"),
        (
            _said("w1", 1, "morning all", wanda_handle),
            _said("w2", 2, "deck is up", greta_handle),
            _said("w3", 3, "nice"),
        ),
    )
    chats = (
        (_chat("dm-w", "whatsapp", wanda), (_said("x1", 0, "hey", wanda),)),
        (_chat("dm-g", "signal", greta), (_said("x2", 0, "hey", greta),)),
        channel,
    )
    _load(user, chats=chats)
    # Thirteen members: "wanda" may be anyone called Wanda; "greta.n" holds the surname's start.
    assert _links(user) == {"greta.n": "Greta Nyberg"}


def test_the_memory_job_links_handles_when_the_group_arrives_after_the_contacts(user):
    for chat, messages in DIRECT_CHATS:
        messages_ingest(
            user=user, chats=[chat], messages=[(chat.platform_chat_id, m) for m in messages]
        )
    services.memory_update(
        user=user, chat_ids=list(Chat.objects.values_list("pk", flat=True)), since=None
    )
    assert _links(user) == {}
    chat, messages = RAIDERS
    messages_ingest(
        user=user, chats=[chat], messages=[(chat.platform_chat_id, m) for m in messages]
    )
    group = Chat.objects.get(user=user, platform_chat_id="dc-raiders")
    services.memory_update(
        user=user, chat_ids=[group.pk], since=T0 + timedelta(hours=30), people_changed=False
    )
    links = _links(user)
    assert links["mothwing"] == "Hana Price" and links["rafam"] == "Rafa Moreno"
