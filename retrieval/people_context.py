"""Which of two people sharing a name a question means, from the word that describes them.

"climbing Rosa", "Rosa from work", "work Rosa": when a name matches more than one human, the
word said with it picks the one whose chats it belongs to:

- a word of the workplace ("work", "office", "colleague") means the person the user talks to
  on a work platform (Slack);
- any other word is counted in the chats each person is in: their titles and messages ("climb"
  in a climbing group's messages); the person whose chats use it most wins, when one does.

Nothing is narrowed when the word fits nobody or everybody equally. One count query per
candidate; user-scoped.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from django.db.models import Q

from claire.accounts.models import User
from conversations.models import ChatParticipant, Message, Platform
from retrieval.lexicon import STOP_WORDS, fold_text

WORK_WORDS = frozenset(
    {"work", "office", "job", "colleague", "coworker", "co-worker", "workplace", "team"}
)
WORK_PLATFORMS = (Platform.SLACK,)
_STEM = 5
# "Rosa from work", "Rosa at the office", "Rosa (climbing)".
_AFTER = re.compile(r"^\s*(?:from|at|in)\s+(?:the\s+|my\s+)?([\w-]+)|^\s*\(([\w-]+)\)")
_BEFORE = re.compile(r"([\w'-]+)\s+$")
# "the Rosa I climb with", "Rosa who I work with", "the Rosa we play with": the verb of the
# clause says what the user does with that one.
_CLAUSE = re.compile(
    r"^\s+(?:(?:who|whom|that)\s+)?(?:i|we)\s+(?:usually\s+|always\s+|used\s+to\s+|go\s+)?"
    r"([\w-]+)(?:\s+([\w-]+))?\s+with\b"
)
# What people do together, by the words their chats use for it (stems of five letters at
# most, and emoji): "the Rosa I climb with" fits the chats that talk of bouldering or a
# crag, or whose title has 🧗. Each family is one activity in several languages.
SHARED_ACTIVITIES: tuple[tuple[str, ...], ...] = (
    ("climb", "bould", "crag", "belay", "crimp", "escal", "klett", "\U0001f9d7"),
    ("run", "runni", "jog", "marat", "5k", "10k", "parkr", "corri", "corre", "laufe",
     "\U0001f3c3"),
    ("swim", "pool", "natac", "nage", "piscin", "schwi", "\U0001f3ca"),
    ("bike", "cycli", "cycle", "ride", "velo", "bici", "radfa", "\U0001f6b4"),
    ("hike", "hikin", "trail", "rando", "trilh", "wande", "\U0001f97e"),
    ("ski", "skiin", "slope", "snowb", "\U0001f3bf"),
    ("surf", "\U0001f3c4"),
    ("row", "rowin", "regat", "\U0001f6a3"),
    ("yoga", "pilat", "\U0001f9d8"),
    ("game", "board", "catan", "dnd", "jeux", "jogo", "juego", "spiel", "\U0001f3b2"),
    ("sing", "choir", "chora", "chorus", "karao", "\U0001f3a4"),
    ("dance", "danci", "salsa", "danse", "danca", "tanz", "\U0001f483"),
    ("study", "class", "cours", "exam", "semin", "lectu"),
    ("cook", "bake", "bakin", "recip", "kitch"),
)  # fmt: skip
# Words after which the next word is a verb ("I pay", "to send"), and verbs that come before a
# name.
_SUBJECTS = frozenset({"i", "you", "we", "they", "he", "she", "to", "did", "will", "can", "could"})
_VERBS = frozenset(
    {
        "pay", "paid", "send", "sent", "tell", "told", "ask", "asked", "text", "call", "called",
        "email", "emailed", "message", "meet", "met", "see", "saw", "thank", "give", "gave",
        "owe", "remind", "invite", "invited", "help", "helped", "visit", "visited",
    }
)  # fmt: skip


def describing_words(folded: str, start: int, end: int) -> list[tuple[str, int, int]]:
    """The words that may describe the name at ``start:end`` of the folded question, with
    their spans: the verb of a clause after it ("Rosa I climb with"), the word after
    "from"/"at" ("Rosa from work"), then the word just before it ("climbing Rosa"). Stop
    words and question words describe nobody."""
    found = []
    clause = _CLAUSE.match(folded[end:])
    if clause and clause.group(1) not in STOP_WORDS:
        # "the Rosa I play tennis with": the object says more than the verb.
        group = 2 if clause.group(2) and clause.group(2) not in STOP_WORDS else 1
        found.append((clause.group(group), end + clause.start(1), end + clause.end(group)))
    after = _AFTER.match(folded[end:])
    if after:
        group = 1 if after.group(1) else 2
        word = after.group(group)
        if word not in STOP_WORDS and len(word) >= 3:
            found.append((word, end + after.start(group), end + after.end(group)))
    before = _BEFORE.search(folded[:start])
    if before:
        word = before.group(1).removesuffix("'s")
        ahead = _BEFORE.search(folded[: before.start(1)])
        # "did I pay Rosa", "can you ask Rosa": a verb, not a word about Rosa.
        is_verb = word in _VERBS or (
            ahead is not None
            and ahead.group(1) in _SUBJECTS
            # "back to climbing Rosa", "lent it to tennis Rosa": after "to", a word in -ing
            # or a noun describes her; "to pay Rosa" is a verb.
            and not (ahead.group(1) == "to" and word.endswith("ing"))
        )
        if (
            word not in STOP_WORDS
            and len(word) >= 3
            and not word.startswith("what")
            and not is_verb
        ):
            found.append((word, before.start(1), before.end(1)))
    return found


def _score(*, user: User, person_ids: Sequence[int], word: str) -> int:
    chats = ChatParticipant.objects.filter(
        chat__user=user, chat__is_excluded_from_ai=False, person_id__in=list(person_ids)
    ).values_list("chat_id", flat=True)
    if word in WORK_WORDS:
        return (
            ChatParticipant.objects.filter(
                chat__user=user, person_id__in=list(person_ids), chat__platform__in=WORK_PLATFORMS
            )
            .values("chat_id")
            .count()
        )
    pattern = _activity_pattern(word)
    return (
        Message.objects.filter(user=user, chat_id__in=chats, deleted_at__isnull=True)
        .filter(
            Q(text__iregex=pattern)
            | Q(chat__title__iregex=pattern)
            | Q(sender_person_id__in=list(person_ids), sender_name__iregex=pattern)
        )
        .count()
    )


def activity_stems(word: str) -> tuple[str, ...]:
    """The stems and emoji of what is done together that ``word`` (folded) names: its
    family in ``SHARED_ACTIVITIES`` when one of its stems begins the word, else the word's
    own stem."""
    stem = word[:_STEM]
    for family in SHARED_ACTIVITIES:
        if any(_inflects(word, member) for member in family if member.isalnum()):
            return tuple(dict.fromkeys((stem, *family)))
    return (stem,)


# Endings that keep a short stem's meaning ("run" -> "running", not "runway").
_ENDINGS = frozenset(
    {"", "s", "es", "e", "ed", "d", "er", "ers", "ing", "ning", "ming", "ping", "ner",
     "ners", "mer", "mers", "ped", "ned"}
)  # fmt: skip


def _inflects(word: str, member: str) -> bool:
    if not word.startswith(member):
        return False
    return len(member) >= _STEM or word[len(member) :] in _ENDINGS


def _activity_pattern(word: str) -> str:
    """A database pattern for any of the activity's stems at a word start, or its emoji."""
    stems = activity_stems(word)
    words = [re.escape(stem) for stem in stems if stem.isalnum()]
    emoji = [stem for stem in stems if not stem.isalnum()]
    alternatives = [rf"(^|[^[:alnum:]])({'|'.join(words)})"] if words else []
    alternatives += emoji
    return "|".join(alternatives)


def narrow_people(
    *, user: User, groups: Mapping[int, Sequence[int]], word: str
) -> tuple[int, ...] | None:
    """The person ids of the one human (``groups``: a representative id to every id of that
    human) whose chats fit ``word`` best, or ``None`` when no one stands out."""
    if len(groups) < 2:
        return None
    folded = fold_text(word)
    scores = sorted(
        ((_score(user=user, person_ids=ids, word=folded), key) for key, ids in groups.items()),
        reverse=True,
    )
    best, runner_up = scores[0], scores[1]
    if best[0] == 0 or best[0] == runner_up[0]:
        return None
    return tuple(sorted(groups[best[1]]))
