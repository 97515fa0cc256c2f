"""Which direct chat a message goes to when the question's name fits several: one contact on
two platforms, or two contacts sharing a first name.

The candidates are only the user's direct chats with the people the question names (resolved
against the user's contacts). A platform the question asks for narrows them first. Chats the
user has never written in (a stranger whose display name imitates a contact) drop out when
any other is left. Then the chat where what the request is about was discussed wins: the
request's own words (not names, not the verbs of asking) are looked for in each candidate's
recent messages, suspicious ones left out. Reading message text here can only rank chats the
question already named; it never adds one. Without such a sign, one person's newest chat
wins; between different people, the one the user writes to most, and the card says which
other contacts the name also fits, so the user can reject it and say which one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from claire.accounts.models import User
from conversations.models import Chat, ChatParticipant, Message, Person
from memory.chatnames import word_stem
from memory.extract import is_suspicious
from memory.recipient import topic_stems
from retrieval.lexicon import fold_text

# Recent messages of each candidate chat searched for the request's subject.
TOPIC_SAMPLE = 300


@dataclass(frozen=True)
class DirectChoice:
    chat: Chat | None
    # The contact the choice settled on, when the candidates were different people (a
    # contact saved twice keeps all its ids: its loops may be in either).
    person_id: int | None = None
    # Chosen because what the request is about was discussed there.
    is_topic_chosen: bool = False
    # Other contacts the question's name fits, that the user also writes to.
    others: tuple[str, ...] = field(default=())

    def note_for(self, person: object) -> str:
        if not self.others:
            return ""
        name = getattr(person, "display_name", "")
        others = " or ".join(self.others)
        return (
            f"More than one of your contacts fits this name: the draft is for {name}, the one "
            f"you write to most. If you meant {others}, reject it and ask again with the full "
            "name."
        )


def _chat_topic_score(*, user: User, chat: Chat, stems: set[str]) -> int:
    """How many of the subject's stems the chat's recent, unsuspicious messages say."""
    texts = (
        Message.objects.filter(user=user, chat=chat, deleted_at__isnull=True)
        .order_by("-sent_at")
        .values_list("text", flat=True)[:TOPIC_SAMPLE]
    )
    said: set[str] = set()
    for text in texts:
        if not text or is_suspicious(text):
            continue
        said |= {word_stem(word) for word in re.findall(r"[a-z][a-z'-]*", fold_text(text))}
    return len(stems & said)


def _chat_people(*, user: User, chats: Sequence[Chat], person_ids: Sequence[int]) -> dict[int, int]:
    """Each chat's person among the named ones."""
    rows = ChatParticipant.objects.filter(
        chat__user=user, chat_id__in=[chat.pk for chat in chats], person_id__in=list(person_ids)
    ).values_list("chat_id", "person_id")
    return dict(rows)


def direct_chat_choice(
    *,
    user: User,
    chats: Sequence[Chat],
    person_ids: Sequence[int],
    question: str,
    names: Sequence[str],
    platforms: set[str],
) -> DirectChoice:
    """Choose among the direct chats (ordered: most own messages, then newest) the named
    people have with the user; see the module docstring."""
    if not chats:
        return DirectChoice(chat=None)
    candidates = list(chats)
    if platforms and any(chat.platform in platforms for chat in candidates):
        candidates = [chat for chat in candidates if chat.platform in platforms]
    written = [chat for chat in candidates if getattr(chat, "own_messages", 0) > 0]
    candidates = written or candidates
    people = _chat_people(user=user, chats=candidates, person_ids=person_ids)
    if len(candidates) == 1:
        return DirectChoice(chat=candidates[0])
    namesakes = _namesakes(user=user, person_ids=set(people.values()), names=names)
    stems = topic_stems(question, names)
    if stems:
        scores = [
            (_chat_topic_score(user=user, chat=chat, stems=stems), chat) for chat in candidates
        ]
        best = max(score for score, _ in scores)
        winners = [chat for score, chat in scores if score == best]
        if best > 0 and len(winners) == 1:
            settled = people.get(winners[0].pk) if len(namesakes) > 1 else None
            return DirectChoice(chat=winners[0], person_id=settled, is_topic_chosen=True)
    if len(namesakes) <= 1:
        # One human: one contact on several platforms, or saved again under a nickname the
        # compiler matched to the name ("Tina 🌻" beside "Martina Russo").
        newest = max(
            candidates,
            key=lambda chat: chat.last_message_at.timestamp() if chat.last_message_at else 0,
        )
        return DirectChoice(chat=newest)
    chosen = candidates[0]
    chosen_person = people.get(chosen.pk)
    others = tuple(
        name
        for person_id, name in sorted(namesakes.items(), key=lambda item: item[1])
        if person_id != chosen_person and not is_suspicious(name)
    )
    return DirectChoice(chat=chosen, person_id=chosen_person, others=others)


def _namesakes(*, user: User, person_ids: set[int], names: Sequence[str]) -> dict[int, str]:
    """Of these contacts, those whose saved name holds a word the question said (two people
    called Tobias), by id: a nickname the compiler matched holds none of them."""
    said = {word for name in names for word in re.findall(r"[a-z]+", fold_text(name))}
    return {
        person_id: name
        for person_id, name in Person.objects.filter(user=user, pk__in=person_ids).values_list(
            "pk", "display_name"
        )
        if said & set(re.findall(r"[a-z]+", fold_text(name)))
    }
