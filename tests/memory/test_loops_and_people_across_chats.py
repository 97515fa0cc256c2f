"""Loops closed in another chat or platform, asks to the user found in groups, amounts owed,
yes/no deeds; people told apart by the word said with their name; what the messages about a
person say of the attribute asked; a nickname linked to a contact's full name."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from conversations.models import Chat, ChatKind, Person
from memory import services
from memory.about import (
    about_findings,
    alias_person_ids,
    asked_attribute,
    people_called,
)
from memory.closure import says_done, topic_words
from memory.models import Loop, LoopKind, LoopStatus
from memory.selectors import open_loops_for_user
from retrieval.evidence import EvidenceLimits
from retrieval.pipeline import Retrieval, retrieve
from retrieval.types import Scope
from tests.memory.helpers import chat_of, ingest, message_row, say

pytestmark = pytest.mark.django_db

# Wednesday 4 March 2026, 18:00 UTC (Lisbon is UTC in March).
T0 = datetime(2026, 3, 4, 18, 0, tzinfo=UTC)
LIMITS = EvidenceLimits(max_sources=8, max_tokens=6000)


def _refresh(user) -> None:
    services.memory_refresh(
        user=user, chat_ids=list(Chat.objects.filter(user=user).values_list("pk", flat=True))
    )


def _ask(user, question: str, now: datetime) -> Retrieval:
    return retrieve(
        user=user, question=question, now=now, scope=Scope.everywhere(), evidence_limits=LIMITS
    )


def _findings(retrieval: Retrieval) -> list[str]:
    return [text for text, _labels in retrieval.memory_findings]


def _person(user, name: str) -> Person:
    return Person.objects.get(user=user, display_name=name)


def test_a_sentence_that_asks_does_not_say_done_but_its_neighbour_does():
    assert says_done("is the design team hiring? portfolio attached 🙏")
    assert not says_done("did you get the portfolio I sent?")
    assert not says_done("I'll send it tomorrow")


def test_topic_words_drop_filler_and_make_everyday_synonyms_one():
    assert topic_words("omg I took so many pics tonight, will send them!") == {"photo"}
    assert "photo" in topic_words("Here's the album link")
    assert "22" in topic_words("I covered your ticket, $22")


def test_a_promise_in_a_group_is_kept_in_a_direct_chat_on_another_platform(user):
    user.first_name = "Sam"
    user.save()
    group = chat_of("hikers", "Bruna", "Teo", kind=ChatKind.GROUP)
    ingest(
        user,
        group,
        say("1", T0, "anyone have the trail map from last time?", sender="Teo"),
        say("2", T0 + timedelta(minutes=3), "Teo I'll send you the trail map tonight"),
    )
    _refresh(user)
    (loop,) = open_loops_for_user(user=user, kinds=(LoopKind.PROMISE_BY_USER,))
    assert loop.person_name == "Teo"
    direct = chat_of("dm-teo", "Teo", platform="telegram")
    ingest(
        user,
        direct,
        say("3", T0 + timedelta(hours=5), "here's the trail map, the north loop is marked"),
    )
    _refresh(user)
    assert open_loops_for_user(user=user, kinds=(LoopKind.PROMISE_BY_USER,)) == []
    row = Loop.objects.get(user=user, kind=LoopKind.PROMISE_BY_USER)
    assert (row.status, row.resolved_by_id) == (
        LoopStatus.RESOLVED,
        message_row(user, "dm-teo", "3").pk,
    )


def test_a_message_about_something_else_closes_no_promise(user):
    direct = chat_of("dm-teo", "Teo")
    other = chat_of("dm-lia", "Lia", platform="signal")
    ingest(user, direct, say("1", T0, "I'll send you the trail map tonight"))
    ingest(
        user, other, say("2", T0 + timedelta(hours=2), "sent you the invoice", platform="signal")
    )
    _refresh(user)
    (loop,) = open_loops_for_user(user=user)
    assert loop.kind == LoopKind.PROMISE_BY_USER


def test_the_persons_receipt_elsewhere_closes_a_group_promise(user):
    group = chat_of("gym", "Bruna", "Teo", kind=ChatKind.GROUP)
    direct = chat_of("dm-bruna", "Bruna")
    ingest(user, group, say("1", T0, "Bruna I still have your rope bag, I'll bring it on Friday"))
    ingest(
        user,
        direct,
        say("2", T0 + timedelta(days=2), "got the rope bag, thank you!", sender="Bruna"),
    )
    _refresh(user)
    assert open_loops_for_user(user=user) == []


def test_a_group_question_naming_the_user_is_open_until_answered(user):
    user.first_name = "Sam"
    user.save()
    group = chat_of("family", "Mum", "Ray", kind=ChatKind.GROUP)
    ingest(
        user,
        group,
        say("0", T0 - timedelta(days=1), "hello all"),
        say("1", T0, "Sam, what size shoes does Ray wear now?", sender="Mum"),
        # Days later, about something else: no answer to the question.
        say("2", T0 + timedelta(days=4), "look at this sunset"),
    )
    _refresh(user)
    (loop,) = open_loops_for_user(user=user)
    assert (loop.kind, loop.person_name) == (LoopKind.QUESTION_TO_USER, "Mum")
    direct = chat_of("dm-mum", "Mum")
    ingest(user, direct, say("3", T0 + timedelta(hours=3), "Ray wears size 40 shoes now"))
    _refresh(user)
    assert open_loops_for_user(user=user) == []


def test_what_do_i_owe_states_the_amount_and_cites_the_message_that_says_it(user):
    chat = chat_of("dm-lia", "Lia")
    ingest(
        user,
        chat,
        say("1", T0, "I covered your concert ticket, $35", sender="Lia"),
        say("2", T0 + timedelta(minutes=4), "thank you!! I'll pay you back on Friday"),
    )
    _refresh(user)
    retrieval = _ask(user, "what do I owe people?", now=T0 + timedelta(days=3))
    (text,) = _findings(retrieval)
    assert "you owe Lia $35 and said you would pay it back" in text
    assert retrieval.memory is not None
    assert message_row(user, "dm-lia", "1").pk in retrieval.memory.message_ids


def test_did_i_question_is_yes_when_done_in_another_chat_citing_the_reply(user):
    user.first_name = "Sam"
    user.save()
    ask = chat_of("dm-teo", "Teo")
    work = chat_of("dm-ines", "Ines", platform="slack")
    ingest(
        user,
        ask,
        say("1", T0, "could you pass my portfolio to your design team?", sender="Teo"),
        say("2", T0 + timedelta(minutes=5), "of course, I'll pass it on next week"),
    )
    ingest(
        user,
        work,
        say(
            "3",
            T0 + timedelta(days=3),
            "my friend Teo is a designer. are you hiring? portfolio attached",
            platform="slack",
        ),
        say(
            "4",
            T0 + timedelta(days=3, hours=1),
            "nice, forwarding it",
            sender="Ines",
            platform="slack",
        ),
    )
    _refresh(user)
    retrieval = _ask(user, "did I ever pass Teo's portfolio along?", now=T0 + timedelta(days=5))
    (text,) = _findings(retrieval)
    assert text.startswith("Yes, you did it on Sat 7 March, 18:00 in dm-ines (slack).")
    assert retrieval.memory is not None
    assert retrieval.memory.message_ids[:2] == (
        message_row(user, "dm-ines", "3").pk,
        message_row(user, "dm-ines", "4").pk,
    )


def test_did_i_question_is_no_and_says_who_is_still_waiting(user):
    user.first_name = "Sam"
    user.save()
    chat = chat_of("dm-teo", "Teo")
    ingest(
        user,
        chat,
        say("1", T0, "Sam, could you send me the trail map?", sender="Teo"),
        say("2", T0 + timedelta(minutes=2), "yes will send the trail map tonight"),
        say("3", T0 + timedelta(days=2), "any news on the map?", sender="Teo"),
    )
    _refresh(user)
    retrieval = _ask(user, "did I send Teo the trail map?", now=T0 + timedelta(days=3))
    (text,) = _findings(retrieval)
    assert text.startswith("No")
    assert "Teo asked you on Fri 6 March, 18:00 and is still waiting for your reply" in text
    assert retrieval.memory is not None
    assert message_row(user, "dm-teo", "3").pk in retrieval.memory.message_ids


def test_the_word_said_with_a_shared_name_picks_the_person(user):
    work = chat_of("dm-rosa-w", "Rosa Lima", platform="slack")
    climbing = chat_of("boulder crew", "Rosa Costa", "Teo", kind=ChatKind.GROUP)
    ingest(user, work, say("1", T0, "standup moved to 10", sender="Rosa Lima", platform="slack"))
    ingest(
        user,
        climbing,
        say("2", T0, "climbing tonight?", sender="Rosa Costa"),
        say("3", T0 + timedelta(minutes=5), "climbing gym at 7!", sender="Teo"),
    )
    lima, costa = _person(user, "Rosa Lima").pk, _person(user, "Rosa Costa").pk
    now = T0 + timedelta(days=1)
    assert _ask(user, "where is climbing Rosa from?", now).compiled.people[0].person_ids == (costa,)
    assert _ask(user, "what did Rosa from work say?", now).compiled.people[0].person_ids == (lima,)
    both = _ask(user, "what did Rosa say?", now).compiled.people[0].person_ids
    assert set(both) == {lima, costa}
    # A verb before the name describes nobody.
    paid = _ask(user, "did I pay Rosa for the standup snacks?", now).compiled.people[0]
    assert set(paid.person_ids) == {lima, costa}


def test_attribute_questions_read_the_messages_about_the_person(user):
    chat = chat_of("dm-rui", "Rui")
    ingest(
        user,
        chat,
        say("1", T0, "long day, the lab was chaos", sender="Rui"),
        say("2", T0 + timedelta(hours=1), "my dad called from Porto, he says hi", sender="Rui"),
        say(
            "3",
            T0 + timedelta(hours=2),
            "ate a pecan cookie by mistake, throat got itchy",
            sender="Rui",
        ),
    )
    rui = [_person(user, "Rui").pk]
    assert asked_attribute("where's Rui from originally?") == "origin"
    assert asked_attribute("what is Rui allergic to?") == "allergy"
    (origin,), ids = about_findings(
        user=user, person_ids=rui, name="Rui", question="where's Rui from?"
    )
    assert ids[0] == message_row(user, "dm-rui", "2").pk
    assert "Porto" in origin.text
    (allergy,), ids = about_findings(
        user=user, person_ids=rui, name="Rui", question="what is Rui allergic to?"
    )
    assert allergy.text.startswith("Rui has a tree nut allergy")
    assert ids[0] == message_row(user, "dm-rui", "3").pk
    assert about_findings(
        user=user, person_ids=rui, name="Rui", question="what is Rui's favourite colour?"
    ) == ([], [])


def test_a_nickname_is_linked_to_the_full_name_said_in_the_group_named_after_them(user):
    party = chat_of("Biscuit turns 40", "Biscuit", "Lena", kind=ChatKind.GROUP)
    ingest(
        user,
        party,
        say("1", T0, "I am turning 40, party on Saturday", sender="Biscuit"),
        say("2", T0 + timedelta(minutes=2), "JOAO SILVA IS 40?? wow", sender="Lena"),
    )
    mail = chat_of("mail-joao", "Joao Silva", platform="email")
    ingest(
        user,
        mail,
        say(
            "3", T0 + timedelta(days=1), "thanks for coming!", sender="Joao Silva", platform="email"
        ),
    )
    biscuit, joao = _person(user, "Biscuit").pk, _person(user, "Joao Silva").pk
    (finding,), ids = about_findings(
        user=user, person_ids=[biscuit], name="Biscuit", question="what's Biscuit's real name?"
    )
    assert finding.text.startswith("Biscuit is most likely Joao Silva")
    assert ids == [message_row(user, "Biscuit turns 40", "2").pk]
    assert alias_person_ids(user=user, person_ids=[biscuit]) == [joao]
    assert alias_person_ids(user=user, person_ids=[joao]) == [biscuit]


def test_a_name_no_contact_has_finds_the_nickname_whose_group_says_it(user):
    party = chat_of("Biscuit turns 40", "Biscuit", "Lena", kind=ChatKind.GROUP)
    ingest(
        user,
        party,
        say("1", T0, "I am turning 40, party on Saturday", sender="Biscuit"),
        say("2", T0 + timedelta(minutes=2), "JOAO SILVA IS 40?? wow", sender="Lena"),
    )
    direct = chat_of("dm-biscuit", "Biscuit")
    ingest(user, direct, say("3", T0, "back to teaching chemistry tomorrow", sender="Biscuit"))
    biscuit = _person(user, "Biscuit").pk
    assert people_called(user=user, question="what's Joao's job?") == ("Joao", [biscuit])
    assert people_called(user=user, question="what's Marta's job?") == ("", [])
    (job,), ids = about_findings(
        user=user, person_ids=[biscuit], name="Joao", question="what's Joao's job?"
    )
    assert job.text.startswith(
        "Joao is most likely a teacher, as your messages tell it: Biscuit wrote"
    )
    assert ids[0] == message_row(user, "dm-biscuit", "3").pk


def test_a_group_question_right_after_the_user_spoke_is_asked_of_them(user):
    group = chat_of("book club", "Ines", "Ray", kind=ChatKind.GROUP)
    ingest(
        user,
        group,
        say("1", T0, "I finished the novel last night"),
        say("2", T0 + timedelta(minutes=4), "did you like the ending?", sender="Ines"),
        # Hours after anyone spoke to the user: asked of the group.
        say("3", T0 + timedelta(hours=5), "can you all make Thursday?", sender="Ray"),
    )
    _refresh(user)
    (loop,) = open_loops_for_user(user=user)
    assert (loop.kind, loop.opened_by_message_id) == (
        LoopKind.QUESTION_TO_USER,
        message_row(user, "book club", "2").pk,
    )


@pytest.mark.parametrize(
    ("nickname", "full_name", "group", "said", "question"),
    [
        ("Biscuit", "Joao Silva", "Biscuit turns 40", "JOAO SILVA IS 40?? wow", "real name"),
        (
            "Moth",
            "Ines Varga",
            "Moth's farewell",
            "ok who invited Ines Varga's mum lol",
            "full name",
        ),
        (
            "Tank",
            "Petra Holm",
            "Tank goes to Oslo",
            "Petra Holm leaving us!! 😭",
            "actual name",
        ),
    ],
)
def test_a_nicknames_real_name_cites_the_message_that_says_it(
    user, nickname, full_name, group, said, question
):
    # The same human writes by email under the full name; a friend says the name in the
    # group named after them. The message that says the name is what proves it.
    party = chat_of(group, nickname, "Lena", kind=ChatKind.GROUP)
    ingest(
        user,
        party,
        say("1", T0, "party on Saturday, come!", sender=nickname),
        say("2", T0 + timedelta(minutes=2), said, sender="Lena"),
    )
    mail = chat_of(f"mail-{nickname}", full_name, platform="email")
    ingest(
        user,
        mail,
        say(
            "3",
            T0 + timedelta(days=1),
            "thanks for coming, the photos are lovely",
            sender=full_name,
            platform="email",
        ),
    )
    ids_of = [_person(user, nickname).pk, _person(user, full_name).pk]
    (finding,), ids = about_findings(
        user=user, person_ids=ids_of, name=nickname, question=f"what's {nickname}'s {question}?"
    )
    assert finding.text.startswith(f"{nickname} is {full_name}")
    assert f"Lena calls them {full_name}" in finding.text
    assert ids[0] == message_row(user, group, "2").pk
