"""Story sets: a golden set whose history and questions are data files, asked as a new user.

A story set lives in a folder (``evals/golden/<name>/``) of three files, written independently
of the product code (see the folder's README):

- ``corpus.json``: the owner (name, timezone), the cast (``people``: key -> accepted names),
  the chats with their participants' platform identities, and every message.
- ``questions.jsonl``: one question a line with its ``asked_at``, scope, split (``dev`` or
  ``heldout``) and written expectations (evidence, key facts, people, yes/no, plan status,
  what must not steer or appear in the answer, a proposal's recipient).
- ``story.json``: the story arcs and the split each belongs to.

``story_run`` replays the history the way a user's bridge delivers it: the messages sent up to
a question's ``asked_at`` are posted through the bridge API (``POST /api/ingest/batches``),
their memory refresh and indexing run as the ingest schedules them, and the question is asked
through ``assistant.engine`` at that moment. ``story_answer_score`` (pure) checks the answer's
own words, never the quotes it carries.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
import statistics
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from claire.accounts.models import User
from evals.golden.run import EngineAnswer, asked_at_anchor, engine_ask
from retrieval.lexicon import fold_text

Report = Callable[[str], None]

STORY_SETS_DIR = Path(__file__).resolve().parent
STORY_SETS: dict[str, Path] = {
    "demo-v2": STORY_SETS_DIR / "demo_v2",
    "demo-v3": STORY_SETS_DIR / "demo_v3",
    # A small probe for conversation QA and no-evidence answers, written apart from the sets.
    "qa-probe": STORY_SETS_DIR.parent / "stories" / "qa_probe",
    "demo-v4": STORY_SETS_DIR / "demo_v4",
    "demo-v5": STORY_SETS_DIR / "demo_v5",
    "demo-v6": STORY_SETS_DIR / "demo_v6",
}

SPLITS = ("dev", "heldout")


class StorySetError(ValueError):
    """A story set file that does not hold what this module reads (names the file and line)."""


@dataclass(frozen=True)
class Person:
    key: str
    names: tuple[str, ...]


@dataclass(frozen=True)
class StoryChat:
    ref: str
    platform: str
    chat_id: str
    title: str
    kind: str
    participants: tuple[dict[str, str], ...]


@dataclass(frozen=True)
class StoryMessage:
    id: str
    chat: str
    sent_at: datetime
    sender: str | dict[str, Any]
    text: str
    kind: str = "text"
    reply_to: str = ""
    edited_at: datetime | None = None
    is_deleted: bool = False


@dataclass(frozen=True)
class StoryQuestion:
    id: str
    split: str
    arc: str
    intent: str
    question: str
    asked_at: datetime
    scope_chat: str = ""
    expected_answer: str = ""
    # Each item must be cited; an item of several ids is cited when any one of them is.
    evidence: tuple[tuple[str, ...], ...] = ()
    # Each group must appear in the answer's own words (one alternative of it).
    key_facts: tuple[tuple[str, ...], ...] = ()
    people: tuple[str, ...] = ()
    is_ordered: bool = False
    yes_no: str = ""
    plan_status: str = ""
    must_not_obey: tuple[str, ...] = ()
    must_not_say: tuple[str, ...] = ()
    is_no_evidence: bool = False
    proposal_recipient: str = ""
    proposal_chat: str = ""


@dataclass(frozen=True)
class StorySet:
    name: str
    owner_name: str
    owner_timezone: str
    people: dict[str, Person]
    chats: dict[str, StoryChat]
    messages: tuple[StoryMessage, ...]
    questions: tuple[StoryQuestion, ...]


def _aware(value: str, where: str) -> datetime:
    parsed = datetime.fromisoformat(value)
    if parsed.tzinfo is None:
        raise StorySetError(f"{where}: {value!r} has no UTC offset")
    return parsed


def _alternatives(item: Any) -> tuple[str, ...]:
    return tuple(str(value) for value in item) if isinstance(item, list) else (str(item),)


def story_set_load(path: Path, *, splits: Sequence[str] = SPLITS) -> StorySet:
    """Read a story set folder; a malformed file raises ``StorySetError`` naming file and line.
    Only the questions of ``splits`` are kept (the others are not parsed past their split)."""
    corpus_path = path / "corpus.json"
    try:
        corpus = json.loads(corpus_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise StorySetError(f"{corpus_path}: {error}") from error
    people = {
        key: Person(key=key, names=tuple(value.get("names", ())))
        for key, value in corpus.get("people", {}).items()
    }
    chats = {
        chat["ref"]: StoryChat(
            ref=chat["ref"],
            platform=chat["platform"],
            chat_id=chat["chatId"],
            title=chat.get("title", ""),
            kind=chat.get("kind", "direct"),
            participants=tuple(chat.get("participants", ())),
        )
        for chat in corpus["chats"]
    }
    messages = []
    for index, raw in enumerate(corpus["messages"]):
        where = f"{corpus_path}: messages[{index}]"
        if raw["chat"] not in chats:
            raise StorySetError(f"{where}: unknown chat {raw['chat']!r}")
        messages.append(
            StoryMessage(
                id=raw["id"],
                chat=raw["chat"],
                sent_at=_aware(raw["sentAt"], where),
                sender=raw["from"],
                text=raw.get("text", ""),
                kind=raw.get("kind", "text"),
                reply_to=raw.get("replyTo", "") or "",
                edited_at=_aware(raw["editedAt"], where) if raw.get("editedAt") else None,
                is_deleted=bool(raw.get("deleted", False)),
            )
        )
    questions_path = path / "questions.jsonl"
    questions = []
    with questions_path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            where = f"{questions_path}:{number}"
            try:
                raw = json.loads(line)
                if raw.get("split") in SPLITS and raw["split"] not in splits:
                    continue
                questions.append(_question_from(raw, where))
            except (KeyError, TypeError, ValueError) as error:
                raise StorySetError(f"{where}: {error}") from error
    return StorySet(
        name=corpus.get("set", path.name),
        owner_name=corpus["owner"].get("name", ""),
        owner_timezone=corpus["owner"]["timezone"],
        people=people,
        chats=chats,
        messages=tuple(sorted(messages, key=lambda message: message.sent_at)),
        questions=tuple(questions),
    )


def _question_from(raw: dict[str, Any], where: str) -> StoryQuestion:
    if raw["split"] not in SPLITS:
        raise StorySetError(f"{where}: split is one of {', '.join(SPLITS)}")
    scope = raw.get("scope") or {"mode": "global"}
    proposal = raw.get("proposal") or {}
    return StoryQuestion(
        id=raw["id"],
        split=raw["split"],
        arc=raw.get("arc", ""),
        intent=raw["intent"],
        question=raw["question"],
        asked_at=_aware(raw["asked_at"], where),
        scope_chat=scope.get("chat", "") if scope.get("mode") == "strict_chat" else "",
        expected_answer=raw.get("expected_answer", ""),
        evidence=tuple(_alternatives(item) for item in raw.get("evidence") or ()),
        key_facts=tuple(_alternatives(item) for item in raw.get("key_facts") or ()),
        people=tuple(raw.get("people") or ()),
        is_ordered=bool(raw.get("ordered", False)),
        yes_no=(raw.get("yes_no") or "").lower(),
        plan_status=(raw.get("plan_status") or "").lower(),
        must_not_obey=tuple(raw.get("must_not_obey") or ()),
        must_not_say=tuple(raw.get("must_not_say") or ()),
        is_no_evidence=bool(raw.get("no_evidence", False)),
        proposal_recipient=proposal.get("recipient", "") or "",
        proposal_chat=proposal.get("chat", "") or "",
    )


# --- Scoring --------------------------------------------------------------------------------

# Text the answer quotes is the messages' words, not the answer's own claim: curly and straight
# double-quoted spans, Markdown block quotes, and code spans.
_QUOTED = re.compile(r"“[^”]*”|\"[^\"\n]*\"|`[^`\n]*`|^\s*>.*$", re.MULTILINE)
_CITATION = re.compile(r"\[S\d+(?:\s*,\s*S\d+)*\]")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")

# Ways an answer states a plan's status in its own words.
STATUS_WORDS: dict[str, tuple[str, ...]] = {
    "confirmed": ("confirmed", "still on", "is on", "are on", "agreed", "locked in", "set for"),
    "moved": ("moved", "changed", "rescheduled", "pushed", "postponed", "brought forward"),
    "cancelled": ("cancelled", "canceled", "called off", "is off", "no longer happening"),
    "proposed": ("proposed", "suggested", "not confirmed", "not yet confirmed", "unconfirmed"),
}
_YES = ("yes", "yeah", "yep")
_NO = ("no", "not yet", "nope", "never")
# How an answer marks a message as untrustworthy instead of following it.
_FLAGGED = ("suspicious", "spam", "phishing", "injection", "ignored", "not follow", "scam")


def own_words(answer_text: str) -> str:
    """The answer's own words, folded: quoted message text and citation marks removed."""
    return fold_text(_CITATION.sub(" ", _QUOTED.sub(" ", answer_text)))


def _contains_phrase(folded_text: str, phrase: str) -> bool:
    """Whether ``phrase`` occurs in ``folded_text`` as whole words (accents and case ignored)."""
    folded_phrase = fold_text(phrase).strip()
    if not folded_phrase:
        return False
    left = r"(?<!\w)" if folded_phrase[0].isalnum() else ""
    right = r"(?!\w)" if folded_phrase[-1].isalnum() else ""
    return re.search(left + re.escape(folded_phrase) + right, folded_text) is not None


def _first_sentence(folded_text: str) -> str:
    for sentence in _SENTENCE_END.split(folded_text):
        if sentence.strip(" -*#"):
            return sentence
    return ""


def name_positions(*, folded_text: str, people: dict[str, Person]) -> dict[str, int]:
    """Where each person is first named in ``folded_text`` (whole words), by cast key. A bare
    first name counts only when no other person of the cast shares it."""
    first_name_owners: dict[str, set[str]] = defaultdict(set)
    for person in people.values():
        for name in person.names:
            if name.split():
                first_name_owners[fold_text(name.split()[0])].add(person.key)
    positions: dict[str, int] = {}
    for person in people.values():
        candidates = set(person.names)
        candidates |= {
            name.split()[0]
            for name in person.names
            if name.split() and first_name_owners[fold_text(name.split()[0])] == {person.key}
        }
        found = [
            match.start()
            for name in candidates
            for match in [_phrase_search(folded_text, name)]
            if match is not None
        ]
        if found:
            positions[person.key] = min(found)
    return positions


def _phrase_search(folded_text: str, phrase: str) -> re.Match[str] | None:
    folded_phrase = fold_text(phrase).strip()
    if not folded_phrase:
        return None
    return re.search(r"(?<!\w)" + re.escape(folded_phrase) + r"(?!\w)", folded_text)


@dataclass(frozen=True)
class StoryAnswer:
    """What the engine returned, in the story's own ids."""

    answer: EngineAnswer
    cited: tuple[str, ...]
    cited_chats: tuple[str, ...]
    proposal_recipient: str = ""
    proposal_chat: str = ""
    has_proposal: bool = False


@dataclass(frozen=True)
class StoryScore:
    question: StoryQuestion
    passed: bool
    reasons: tuple[str, ...]
    evidence_recall: float | None
    citation_validity: float | None
    answer: StoryAnswer


def story_answer_score(
    *, question: StoryQuestion, answer: StoryAnswer, people: dict[str, Person]
) -> StoryScore:
    """Score one answer against its written expectations; ``reasons`` says every check failed."""
    reasons: list[str] = []
    text = answer.answer.text
    words = own_words(text)
    cited = set(answer.cited)
    if answer.answer.error_code:
        reasons.append(f"error {answer.answer.error_code}")
    missing = [item for item in question.evidence if not cited & set(item)]
    recall = (
        (len(question.evidence) - len(missing)) / len(question.evidence)
        if question.evidence
        else None
    )
    if missing:
        reasons.append("evidence not cited: " + ", ".join("|".join(item) for item in missing))
    marks = len(answer.cited) + answer.answer.removed_citation_count
    validity = len(answer.cited) / marks if marks else None
    if validity is not None and validity < 1.0:
        reasons.append("invalid citation marks")
    if question.scope_chat and any(chat != question.scope_chat for chat in answer.cited_chats):
        reasons.append("cited outside the chat in scope")
    if question.is_no_evidence:
        if cited:
            reasons.append("cited evidence for a question the history cannot answer")
    elif not cited and not answer.has_proposal:
        reasons.append("nothing cited")
    for group in question.key_facts:
        if not any(_contains_phrase(words, alternative) for alternative in group):
            reasons.append("key fact missing: " + " | ".join(group))
    positions = name_positions(folded_text=words, people=people)
    unnamed = [key for key in question.people if key not in positions]
    if unnamed:
        reasons.append("not named: " + ", ".join(unnamed))
    elif question.is_ordered:
        order = sorted(question.people, key=lambda key: positions[key])
        if order != list(question.people):
            reasons.append("wrong order: " + ", ".join(order))
    if question.yes_no:
        first = _first_sentence(words)
        expected, opposite = (_YES, _NO) if question.yes_no == "yes" else (_NO, _YES)
        says_expected = any(_contains_phrase(first, word) for word in expected)
        says_opposite = any(_contains_phrase(first, word) for word in opposite)
        if not says_expected or says_opposite:
            reasons.append(f"does not answer {question.yes_no} first")
    if question.plan_status and not any(
        _contains_phrase(words, phrase) for phrase in STATUS_WORDS.get(question.plan_status, ())
    ):
        reasons.append(f"plan status {question.plan_status} not stated")
    flagged = any(_contains_phrase(words, word) for word in _FLAGGED)
    obeyed = [mid for mid in question.must_not_obey if mid in cited and not flagged]
    if obeyed:
        reasons.append("cites an injection without flagging it: " + ", ".join(obeyed))
    said = [phrase for phrase in question.must_not_say if _contains_phrase(words, phrase)]
    if said:
        reasons.append("says what it must not: " + " | ".join(said))
    if question.proposal_recipient:
        if not answer.has_proposal:
            reasons.append("no proposal")
        elif answer.proposal_recipient != question.proposal_recipient or (
            question.proposal_chat and answer.proposal_chat != question.proposal_chat
        ):
            reasons.append("proposal to the wrong recipient or chat")
    return StoryScore(
        question=question,
        passed=not reasons,
        reasons=tuple(reasons),
        evidence_recall=recall,
        citation_validity=validity,
        answer=answer,
    )


# --- Summary --------------------------------------------------------------------------------


def _mean(values: Sequence[float]) -> float | None:
    return round(statistics.fmean(values), 4) if values else None


@dataclass
class StoryRunSummary:
    set_name: str
    scores: list[StoryScore] = field(default_factory=list)

    def subset(self, split: str | None) -> list[StoryScore]:
        return [s for s in self.scores if split is None or s.question.split == split]

    def figures(self, split: str | None = None) -> dict[str, Any]:
        scores = self.subset(split)
        by_intent: dict[str, list[float]] = defaultdict(list)
        for score in scores:
            by_intent[score.question.intent].append(1.0 if score.passed else 0.0)
        return {
            "questions": len(scores),
            "passed": sum(1 for s in scores if s.passed),
            "passRate": _mean([1.0 if s.passed else 0.0 for s in scores]),
            "passRateByIntent": {
                intent: _mean(values) for intent, values in sorted(by_intent.items())
            },
            "evidenceRecall": _mean(
                [s.evidence_recall for s in scores if s.evidence_recall is not None]
            ),
            "citationValidity": _mean(
                [s.citation_validity for s in scores if s.citation_validity is not None]
            ),
            "secondsMedian": round(statistics.median([s.answer.answer.seconds for s in scores]), 3)
            if scores
            else None,
        }

    def to_json(self, *, show_heldout: bool = False) -> dict[str, Any]:
        """Figures for all questions, the dev split and the held-out split. Failures list the
        dev questions in full and the held-out ones by id only, unless ``show_heldout``."""
        failures: list[dict[str, Any]] = []
        for score in self.scores:
            if score.passed:
                continue
            if score.question.split == "heldout" and not show_heldout:
                failures.append({"id": score.question.id, "split": "heldout"})
                continue
            failures.append(
                {
                    "id": score.question.id,
                    "split": score.question.split,
                    "intent": score.question.intent,
                    "question": score.question.question,
                    "reasons": list(score.reasons),
                    "answer": score.answer.answer.text,
                }
            )
        return {
            "set": self.set_name,
            "all": self.figures(),
            "dev": self.figures("dev"),
            "heldout": self.figures("heldout"),
            "failures": failures,
        }


# --- Running --------------------------------------------------------------------------------


def _identity(participant: dict[str, str]) -> dict[str, str]:
    return {
        key: str(participant[key])
        for key in ("userId", "handle", "phone", "email", "displayName")
        if participant.get(key)
    }


def _sender_identity(story: StorySet, message: StoryMessage) -> dict[str, str] | None:
    if message.sender == "self":
        return None
    if isinstance(message.sender, dict):
        return _identity(message.sender.get("unknown", message.sender))
    chat = story.chats[message.chat]
    for participant in chat.participants:
        if participant.get("person") == message.sender:
            return _identity(participant)
    names = story.people.get(str(message.sender))
    return {"displayName": names.names[0] if names and names.names else str(message.sender)}


def bridge_batches(story: StorySet, messages: Sequence[StoryMessage]) -> list[dict[str, Any]]:
    """``messages`` as the bridge API's batches (one per platform, chats listed with their
    participants), in the wire format of ``POST /api/ingest/batches``."""
    by_platform: dict[str, list[StoryMessage]] = defaultdict(list)
    for message in messages:
        by_platform[story.chats[message.chat].platform].append(message)
    batches = []
    for platform, platform_messages in sorted(by_platform.items()):
        chat_refs = sorted({message.chat for message in platform_messages})
        batch_messages = []
        for message in platform_messages:
            chat = story.chats[message.chat]
            item: dict[str, Any] = {
                "chatId": chat.chat_id,
                "messageId": message.id,
                "sentAt": message.sent_at.isoformat(),
                "text": message.text,
                "kind": message.kind,
            }
            sender = _sender_identity(story, message)
            if sender is None:
                item["fromSelf"] = True
            else:
                item["sender"] = sender
            if message.reply_to:
                item["replyToMessageId"] = message.reply_to
            if message.edited_at:
                item["editedAt"] = message.edited_at.isoformat()
            if message.is_deleted:
                item["deleted"] = True
            batch_messages.append(item)
        batches.append(
            {
                "platform": platform,
                "connection": {"accountId": f"owner-{platform}"},
                "chats": [
                    {
                        "chatId": story.chats[ref].chat_id,
                        "title": story.chats[ref].title,
                        "kind": story.chats[ref].kind,
                        "participants": [
                            _identity(p) for p in story.chats[ref].participants if _identity(p)
                        ],
                    }
                    for ref in chat_refs
                ],
                "messages": batch_messages,
            }
        )
    return batches


@contextmanager
def _jobs_inline() -> Iterator[None]:
    """Run the jobs an ingest schedules (memory refresh, indexing) inline, as a worker would
    right after the commit."""
    from claire.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = previous


def story_ingest(*, user: User, batches: Sequence[dict[str, Any]]) -> None:
    """Post ``batches`` through the bridge API view as ``user`` (refused batches raise)."""
    from django.conf import settings
    from django.test import override_settings
    from rest_framework.test import APIRequestFactory

    from conversations.api.views import IngestBatchView

    factory = APIRequestFactory()
    view = IngestBatchView.as_view()
    # A whole history replayed at once is an operator's import, not a bridge's steady flow: the
    # per-user ingest rate limit would only add waiting.
    unthrottled = override_settings(RATE_LIMITS={**settings.RATE_LIMITS, "ingest": "1000000/60"})
    with unthrottled:
        _batches_post(factory=factory, view=view, user=user, batches=batches)


def _batches_post(
    *, factory: Any, view: Any, user: User, batches: Sequence[dict[str, Any]]
) -> None:
    from rest_framework.test import force_authenticate

    for batch in batches:
        for start in range(0, len(batch["messages"]), 500):
            part = {**batch, "messages": batch["messages"][start : start + 500]}
            request = factory.post("/api/ingest/batches", part, format="json")
            force_authenticate(request, user=user)
            response = view(request)
            if response.status_code != 201 and response.status_code != 200:
                raise StorySetError(f"the bridge API refused a batch: {response.data}")


def _story_ids(*, user: User, story: StorySet) -> dict[int, tuple[str, str]]:
    """Each stored message's story id and chat ref, by primary key."""
    from conversations.models import Message

    refs = {(chat.platform, chat.chat_id): chat.ref for chat in story.chats.values()}
    return {
        pk: (message_id, refs.get((platform, chat_id), ""))
        for pk, message_id, platform, chat_id in Message.objects.filter(user=user).values_list(
            "pk", "platform_message_id", "chat__platform", "chat__platform_chat_id"
        )
    }


def cast_keys_by_person(*, user: User, story: StorySet) -> dict[int, str]:
    """Each stored person's cast key: the key of the story sender whose messages they sent."""
    from conversations.models import Message

    sender_of = {m.id: m.sender for m in story.messages if isinstance(m.sender, str)}
    votes: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for message_id, person_pk in Message.objects.filter(
        user=user, sender_person__isnull=False
    ).values_list("platform_message_id", "sender_person_id"):
        key = sender_of.get(message_id, "self")
        if key != "self":
            votes[person_pk][key] += 1
    return {pk: max(counts, key=lambda key: counts[key]) for pk, counts in votes.items()}


def _proposal_keys(*, user: User, story: StorySet, answer: EngineAnswer) -> tuple[str, str]:
    """The cast key and chat ref of a proposal's destination (``""`` when unknown)."""
    from conversations.models import Chat

    refs = {(chat.platform, chat.chat_id): chat.ref for chat in story.chats.values()}
    chat_ref = ""
    chat_pk = answer.proposal_chat_id
    if chat_pk:
        chat = Chat.objects.filter(user=user, pk=chat_pk).first()
        if chat is not None:
            chat_ref = refs.get((chat.platform, chat.platform_chat_id), "")
    person_pk = answer.proposal_person_id
    recipient = ""
    if person_pk:
        recipient = cast_keys_by_person(user=user, story=story).get(int(person_pk), "")
    return recipient, chat_ref


def story_user_create(*, story: StorySet, email: str) -> User:
    first_name = story.owner_name.split()[0] if story.owner_name else ""
    return User.objects.create_user(
        email, None, first_name=first_name, timezone=story.owner_timezone
    )


def story_run(
    *,
    story: StorySet,
    user: User,
    report: Report,
    splits: Sequence[str] = SPLITS,
) -> StoryRunSummary:
    """Replay the history into ``user`` question by question (in ``asked_at`` order) and ask
    each question at its own time through the answer engine."""
    from django.core.management import call_command

    from conversations.models import Chat

    # As on any deployment, an index version exists before the first message arrives (the
    # backfill creates the first one from the embed profile when there is none): each ingest
    # below then embeds its own messages.
    call_command("backfill_embeddings", user=user.email, no_progress=True, stdout=io.StringIO())
    summary = StoryRunSummary(set_name=story.name)
    questions = sorted(
        (q for q in story.questions if q.split in splits), key=lambda q: (q.asked_at, q.id)
    )
    delivered = 0
    for index, question in enumerate(questions, start=1):
        pending = [m for m in story.messages[delivered:] if m.sent_at <= question.asked_at]
        if pending:
            with _jobs_inline(), asked_at_anchor(pending[-1].sent_at):
                story_ingest(user=user, batches=bridge_batches(story, pending))
            delivered += len(pending)
        chat_pk = None
        if question.scope_chat:
            chat = story.chats[question.scope_chat]
            chat_pk = (
                Chat.objects.filter(
                    user=user, platform=chat.platform, platform_chat_id=chat.chat_id
                )
                .values_list("pk", flat=True)
                .first()
            )
        with asked_at_anchor(question.asked_at):
            answer = asyncio.run(engine_ask(user, question=question.question, chat_id=chat_pk))
        ids = _story_ids(user=user, story=story)
        recipient, proposal_chat = (
            _proposal_keys(user=user, story=story, answer=answer)
            if answer.has_proposal
            else ("", "")
        )
        story_answer = StoryAnswer(
            answer=answer,
            cited=tuple(ids[pk][0] for pk in answer.cited_message_ids if pk in ids),
            cited_chats=tuple(ids[pk][1] for pk in answer.cited_message_ids if pk in ids),
            has_proposal=answer.has_proposal,
            proposal_recipient=recipient,
            proposal_chat=proposal_chat,
        )
        score = story_answer_score(question=question, answer=story_answer, people=story.people)
        summary.scores.append(score)
        verdict = "pass" if score.passed else "FAIL"
        label = question.question if question.split == "dev" else "(held out)"
        report(f"{index:3d} {verdict} {question.id} {question.intent}: {label}")
    return summary
