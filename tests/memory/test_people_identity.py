"""People across identities and platforms, asked about through the real retrieval path and
the local answerer: "who is X?", "how do I know X?", "what's X's number / email?", "who's the
landlord?", "Sam from work", a sister saved under a nickname, a friend writing from a new
number. The history is ``tests/memory/people_history.py``."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from claire.ai.local.extractive import compose_answer
from claire.ai.types import EvidenceSource, MemoryFinding
from conversations.models import Person
from retrieval.evidence import EvidenceLimits
from retrieval.pipeline import Retrieval, retrieve
from retrieval.types import Scope
from tests.memory.people_history import (
    NOW,
    message_pk,
    people_history_load,
    second_history_load,
)

pytestmark = pytest.mark.django_db

LIMITS = EvidenceLimits(max_sources=8, max_tokens=6000)


@dataclass(frozen=True)
class Case:
    question: str
    # Words the answer's own first paragraph must say (accent- and case-insensitive).
    says: tuple[str, ...]
    # (platform chat id, platform message id) of a message the answer must cite.
    cites: tuple[str, str] | None = None
    # Display names of the people the question must resolve to (all of them, nobody else).
    resolves_to: tuple[str, ...] = ()


CASES = (
    Case(
        "who is Dana?", ("flatmate",), ("wa-partner", "p3"), ("Dana Whitfield", "+44 7911 555018")
    ),
    Case("how do I know Dana?", ("flatmate",), ("wa-partner", "p3")),
    Case("what's Dana's number?", ("7911",), ("wa-dana-new", "dn1")),
    Case("what's Dana's new number?", ("7911",), ("wa-dana-new", "dn1")),
    Case("who's Leo?", ("cousin",), ("wa-family", "f1")),
    Case("how do I know Leo?", ("cousin",), ("wa-family", "f1")),
    Case("what's Leo's email?", ("leo.marsh@fernmail.test",), ("email-leo", "e1")),
    Case("who's the landlord?", ("Park",), ("wa-dana", "d2")),
    Case("what's our landlord's number?", ("7946",), ("sms-park", "k1")),
    Case("who is Mr Park?", ("landlord",), ("wa-dana", "d2")),
    Case("who is Sam from work?", ("boss",), ("wa-partner", "p1"), ("Sam Ortiz",)),
    Case("what's climbing Sam's last name?", ("Lee",), None, ("Sam Lee",)),
    Case("who's my boss?", ("Sam",), ("wa-partner", "p1")),
    Case("who is Maya?", ("sister",), ("wa-dana", "d3")),
    Case("what's Priya's number?", ("7400",), ("wa-priya-new", "r2")),
    Case("what's Tom's new number?", ("936",), ("sig-tom-new", "t2")),
    Case("what's Sam Lee's number?", ("900555",), None, ("Sam Lee",)),
)


# Written for the second history before the rules ran on it.
SECOND_CASES = (
    Case("whats jordan's phone number", ("6285550199",), ("im-jordan-new", "j4")),
    Case("what's Jordan's cell?", ("6285550199",), ("im-jordan-new", "j4")),
    Case("who's Nina?", ("colleague",), ("wa-ben", "b1")),
    Case("how do I know Nina?", ("colleague",), ("wa-ben", "b1")),
    Case("what's Nina's email address?", ("nina.alvarez@brightloop.test",), ("email-nina", "n1")),
    Case("who is Grace Okafor?", ("landlord",), ("wa-ben", "b2")),
    Case("what's the landlady's number?", ("5105550142",), ("sms-grace", "g1")),
    Case("who's Ravi?", ("neighbour",), ("wa-ben", "b4")),
    Case("who is Lucy?", ("cousin",), ("wa-ben", "b5")),
    Case("what's Lucy's number?", ("9175550123",), ("wa-lucy", "l2")),
    Case("what's book club Alex's last name?", ("Moreno",), None, ("Alex Moreno",)),
    Case("who is Alex from book club?", ("Book club",), None, ("Alex Moreno",)),
    Case("who's Mei?", ("engaged to Ben",), ("wa-ben", "b6")),
    # Written after the rest: the nickname asked about the other way round.
    Case("what's Peanut's real name?", ("Lucy",), ("wa-lucy", "l2")),
    Case("who is Peanut?", ("cousin",), ("wa-ben", "b5")),
    # A contact saved with a role, the same number saved again under a full name.
    Case("what's the plumber's number?", ("4155550150",), ("sms-rui", "u1")),
    Case("who is Rui Costa?", ("plumber", "also saved as Rui plumber"), ("sms-rui", "u1")),
    Case("who is Bo 🐝 on Telegram?", ("talk with Bo", "Telegram"), None, ("Bo 🐝",)),
)


def _answer(retrieval: Retrieval) -> str:
    """The local answer, built from the retrieval as the answer engine builds it."""
    if retrieval.is_no_evidence:
        return "I couldn't find anything about this."
    evidence = tuple(
        EvidenceSource(
            label=source.source_id,
            text=" / ".join(f"{m.sender_name}: {m.text}" for m in source.messages),
            sender=source.sender_name,
            sent_at=source.sent_at,
            chat_title=source.chat_title,
            primary_text=source.primary.text,
            must_cite=source.source_id in retrieval.memory_sources,
            note=retrieval.memory_sources.get(source.source_id, ""),
            turns=tuple((m.sender_name, m.text) for m in source.messages),
        )
        for source in retrieval.pack.sources
    )
    findings = tuple(
        MemoryFinding(text=text, labels=labels) for text, labels in retrieval.memory_findings
    )
    return compose_answer(
        retrieval.compiled.question,
        evidence,
        "Europe/London",
        intent=str(retrieval.compiled.intent),
        findings=findings,
    )


def case_outcome(user, case: Case) -> list[str]:
    """What is wrong with the answer to ``case`` (empty: right)."""
    retrieval = retrieve(
        user=user, question=case.question, now=NOW, scope=Scope.everywhere(), evidence_limits=LIMITS
    )
    answer = _answer(retrieval)
    lead = answer.split("\n\n")[0].casefold()
    problems = [f"does not say {word!r}" for word in case.says if word.casefold() not in lead]
    if case.cites is not None:
        expected = message_pk(user, *case.cites)
        cited = {mid for source in retrieval.pack.sources for mid in source.message_ids}
        if expected not in cited:
            problems.append(f"does not cite {case.cites}")
    if case.resolves_to:
        ids = {pid for person in retrieval.compiled.people for pid in person.person_ids}
        names = set(Person.objects.filter(pk__in=ids).values_list("display_name", flat=True))
        if names != set(case.resolves_to):
            problems.append(f"resolves to {sorted(names)}")
    return problems


@pytest.mark.parametrize("case", CASES, ids=[case.question for case in CASES])
def test_people_questions_resolve_and_answer(user, case):
    people_history_load(user)
    assert case_outcome(user, case) == []


@pytest.mark.parametrize("case", SECOND_CASES, ids=[case.question for case in SECOND_CASES])
def test_people_questions_hold_on_a_second_history(user, case):
    second_history_load(user)
    assert case_outcome(user, case) == []


def test_one_number_written_nationally_and_internationally_is_one_person(user):
    people_history_load(user)
    dana = Person.objects.get(user=user, display_name="Dana Whitfield")
    assert not Person.objects.filter(user=user, display_name="Dana").exists()
    assert set(dana.identities.filter(kind="phone").values_list("value", flat=True)) == {
        "+447700900123",
        "07700900123",
    }


def test_a_new_number_that_says_who_it_is_is_merged_and_a_split_holds(user):
    from memory.models import PersonMerge
    from memory.services import introductions_merge, person_split

    people_history_load(user)
    merges = {
        (merge.kept_person.display_name, merge.merged_person.display_name)
        for merge in PersonMerge.objects.filter(user=user, split_at__isnull=True)
    }
    assert merges == {
        ("Dana Whitfield", "+44 7911 555018"),
        ("Priya Shah", "+44 7400 123999"),
        ("Tom Becker", "+351 936 111 222"),
    }
    tom = PersonMerge.objects.get(user=user, kept_person__display_name="Tom Becker")
    person_split(user=user, merge_id=tom.pk, now=NOW)
    assert introductions_merge(user=user) == 0
    assert not PersonMerge.objects.filter(
        user=user, kept_person__display_name="Tom Becker", split_at__isnull=True
    ).exists()


def test_a_name_shared_by_two_contacts_merges_nobody(user):
    from conversations.identities import IncomingIdentity
    from conversations.services import IncomingChat, IncomingMessage, messages_ingest
    from memory.models import PersonMerge
    from memory.services import introductions_merge
    from tests.memory.people_history import T0

    def chat(chat_id: str, who: IncomingIdentity, text: str) -> None:
        messages_ingest(
            user=user,
            chats=[
                IncomingChat(platform="whatsapp", platform_chat_id=chat_id, participants=(who,))
            ],
            messages=[
                (
                    chat_id,
                    IncomingMessage(platform_message_id=chat_id, sent_at=T0, text=text, sender=who),
                )
            ],
        )

    chat(
        "a",
        IncomingIdentity(platform="whatsapp", phone="+44 7700 900001", display_name="Kim Ash"),
        "hi",
    )
    chat(
        "b",
        IncomingIdentity(platform="whatsapp", phone="+44 7700 900002", display_name="Kim Lowe"),
        "yo",
    )
    chat(
        "c", IncomingIdentity(platform="whatsapp", phone="+44 7700 900003"), "it's Kim, new number!"
    )
    assert introductions_merge(user=user) == 0
    assert not PersonMerge.objects.filter(user=user).exists()


@pytest.mark.parametrize(
    ("text", "is_from_self", "name"),
    [
        ("Chris and I got engaged!!", True, "Chris"),
        ("so... Ruby said yes 💍", False, "Ruby"),
        ("I proposed to Ana last night, she said yes", False, "Ana"),
    ],
)
def test_an_engagement_announced_relates_the_two(text, is_from_self, name):
    from memory.extract import fact_claims

    (claim,) = fact_claims(text, is_from_self=is_from_self, is_direct=False)
    assert (claim.subject, claim.value) == (f"named:{name}", "fiance")
    assert claim.related_to_user is is_from_self


@pytest.mark.parametrize("text", ["Ana said yes to the job!", "we said yes to the venue 💍"])
def test_a_yes_that_is_no_engagement(text):
    from memory.extract import fact_claims

    assert fact_claims(text, is_from_self=False, is_direct=False) == []


def test_a_nickname_number_that_writes_under_a_full_name_elsewhere_is_that_name(user):
    from datetime import timedelta

    from conversations.identities import IncomingIdentity
    from conversations.models import ChatKind
    from conversations.services import IncomingChat, IncomingMessage, messages_ingest
    from tests.memory.people_history import T0

    def post(chat: IncomingChat, message_id: str, who: IncomingIdentity | None, text: str) -> None:
        messages_ingest(
            user=user,
            chats=[chat],
            messages=[
                (
                    chat.platform_chat_id,
                    IncomingMessage(
                        platform_message_id=message_id,
                        sent_at=T0 + timedelta(minutes=len(message_id)),
                        text=text,
                        sender=who,
                        is_from_self=who is None,
                    ),
                )
            ],
        )

    in_group = IncomingIdentity(
        platform="whatsapp", phone="+44 7700 900555", display_name="Oren Talbridge"
    )
    saved = IncomingIdentity(platform="imessage", phone="+447700900555", display_name="Bix 🐝")
    group = IncomingChat(
        platform="whatsapp",
        platform_chat_id="grp-chess",
        title="Chess club ♟️",
        kind=ChatKind.GROUP,
        participants=(in_group,),
    )
    direct = IncomingChat(
        platform="imessage", platform_chat_id="im-bix", title="Bix 🐝", participants=(saved,)
    )
    post(direct, "d1", saved, "still got my board? need it back by friday")
    post(group, "g11", in_group, "I'll bring the clocks on thursday")
    retrieval = retrieve(
        user=user,
        question="whats bix's actual name",
        now=NOW,
        scope=Scope.everywhere(),
        evidence_limits=LIMITS,
    )
    answer = _answer(retrieval)
    assert answer.split("\n\n")[0].startswith("Bix is Oren Talbridge"), answer
    assert message_pk(user, "grp-chess", "g11") in {
        mid for source in retrieval.pack.sources for mid in source.message_ids
    }
