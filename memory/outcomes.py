"""How an event turned out: the message reporting the result, not the one announcing it.

"How did the final go?", "how did we do in the tournament?", "what was my race time?", "how's
the launch doing, any numbers?", "what was actually wrong with the boiler?", "did I pass?",
"how was the trip?" ask about an outcome. The messages that name the event best are usually
the announcement or the plan, written before it happened; the result comes later, in the same
chat, often without the event's name ("Runners up!!", "lost 6-4 in the semis", "fixed, it was
the fuse").

``outcome_hits`` finds the event (a plan read for its words, else the searched messages that
name it, with the day they set), then reads the messages of the event's chats from the event's
day (or, without one, from its first mention) to the question's time, and keeps those that
report a result in general words of results (scores, places, rounds, wins and losses, passes,
fixes and faults, launches and their numbers, check-ups; in English, Spanish, Portuguese,
Italian, French and German). The best one leads the answer as a finding, cited; the
announcement follows as context. An event still ahead is said to be ahead; a past event with
no later word on it is said to have none. Pure reads; no model call.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Q

from claire.accounts.models import User
from claire.ai.local.answer_kinds import answer_types
from claire.ai.suspicious import suspicious_text
from conversations.models import Chat, ChatKind, ChatParticipant, Message, Person
from memory.findings import Finding, day_text, plan_current_when
from memory.selectors.merges import person_ids_expand
from memory.timeline import topic_plan
from retrieval.dates import message_relative_date
from retrieval.lexicon import STOP_WORDS, fold_text
from retrieval.types import CompiledQuery, Intent

# ---------------------------------------------------------------------------------------------
# The question
# ---------------------------------------------------------------------------------------------

_DET = (
    r"(?:the|my|our|your|his|her|their|this|that|last|el|la|los|las|lo|le|les|il|l'|o|a|os|as"
    r"|der|die|das|den|dem|mi|mis|tu|nuestro|nuestra|meu|minha|nosso|nossa|mio|mia|nostro"
    r"|nostra|mon|ma|notre|mein|meine|unser|unsere)"
)
_EVENT = r"(?P<event>[^?.!,;]{2,60}?)"
_TAIL = (
    r"\s*(?:in\s+the\s+end|after\s+all|then|so\s+far|yesterday|last\s+\w+|on\s+\w+day"
    r"|at\s+the\s+weekend|this\s+weekend|today|tonight|finally)?\s*[?.!]*\s*$"
)
_RESULT_NOUN = (
    r"(?:time|score|result|results|grade|grades|mark|marks|placing|position|verdict|diagnosis)"
)
# Each pattern reads the folded question; ``event`` is the thing asked about (may be absent).
_ASKS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern))
    for name, pattern in (
        # "how did the final go", "how did my exam go?", "how did it go with the plumber"
        ("went", rf"\bhow\s+did\s+(?:{_DET}\s+)?{_EVENT}\s+(?:go|turn\s+out|end|pan\s+out)\b"),
        # "how did we do in the tournament", "how did Ana do at the race"
        (
            "did_in",
            rf"\bhow\s+did\s+[\w'-]+(?:\s+and\s+[\w'-]+)?\s+do\s+(?:in|at|on|with)\s+"
            rf"(?:{_DET}\s+)?{_EVENT}{_TAIL}",
        ),
        # "how was the trip", "how were the exams"
        ("was", rf"^\W*(?:so\s+|and\s+)?how\s+(?:was|were)\s+{_DET}\s+{_EVENT}{_TAIL}"),
        # "how's the launch doing", "how is the new site going so far"
        (
            "doing",
            rf"\bhow(?:'s|\s+is|\s+are)\s+{_DET}\s+{_EVENT}\s+(?:doing|going|performing"
            r"|coming\s+along|looking)\b",
        ),
        # "what was my half marathon time", "what were the exam results"
        (
            "result_of",
            rf"\bwhat\s+(?:was|were)\s+(?:{_DET}|[\w-]+'s)\s+{_EVENT}\s+{_RESULT_NOUN}\b",
        ),
        # "Rosa's 5k time?", "my exam results?"
        (
            "result_of",
            r"^\W*(?:my|our|his|her|their|your|(?!(?:what|where|when|who|how|that|it|there|here)'s)"
            r"[\w-]+'s)\s+"
            rf"{_EVENT}\s+{_RESULT_NOUN}\s*[?.!]*\s*$",
        ),
        # "what was actually wrong with the hot water", "what was the problem with the car"
        (
            "wrong",
            rf"\bwhat\s+(?:was|were|is)\s+(?:actually\s+|really\s+|in\s+the\s+end\s+)?"
            rf"(?:wrong|the\s+(?:problem|issue|matter|fault|trouble))\s+with\s+"
            rf"(?:{_DET}\s+)?{_EVENT}{_TAIL}",
        ),
        # "did I pass", "did we win the quiz", "did Ana get through the interview"
        (
            "pass",
            r"^\W*(?:so\s+|and\s+)?did\s+[\w'-]+\s+(?:pass|win|fail|get\s+through|make\s+it"
            rf"\s+through|qualify)\b(?:\s+(?:in\s+|at\s+)?(?:{_DET}\s+)?{_EVENT})?{_TAIL}",
        ),
        # "any news / results / numbers from the launch?"
        (
            "any_news",
            r"\bany\s+(?:news|word|results?|numbers|figures|updates?)\s+(?:on|about|from|of)"
            rf"\s+(?:{_DET}\s+)?{_EVENT}{_TAIL}",
        ),
        # Spanish: "¿cómo fue el torneo?", "¿qué tal os fue en la carrera?"
        (
            "es",
            r"\b(?:como|que\s+tal)\s+(?:te\s+|os\s+|nos\s+|le\s+|les\s+)?(?:fue|salio|ha\s+ido"
            rf"|ha\s+salido|quedo|quedamos|quedaron)\s+(?:en\s+)?{_DET}\s+{_EVENT}{_TAIL}",
        ),
        # Portuguese: "como foi o jogo?", "como correu a entrevista?"
        (
            "pt",
            r"\bcomo\s+(?:e\s+que\s+)?(?:foi|foram|correu|correram|se\s+saiu|nos\s+saimos)"
            rf"\s+(?:n?[oa]s?\s+)?{_EVENT}{_TAIL}",
        ),
        # Italian: "com'è andata la partita?", "come è andato l'esame?"
        (
            "it",
            r"\bcom(?:e|')\s*(?:e\s+|')?(?:andat[oaie]|finit[oaie])\s+"
            rf"(?:{_DET}\s*)?{_EVENT}{_TAIL}",
        ),
        # French: "comment s'est passé le match ?", "comment ça s'est passé, l'entretien ?"
        (
            "fr",
            r"\bcomment\s+(?:s'est|c'est|ca\s+s'est)\s+(?:passee?s?|deroulee?s?)\s*,?\s+"
            rf"(?:{_DET}\s*)?{_EVENT}{_TAIL}",
        ),
        # German: "wie war das Konzert?", "wie lief die Prüfung?"
        ("de", rf"\bwie\s+(?:war|waren|lief|liefen|ging)\s+{_DET}\s+{_EVENT}{_TAIL}"),
    )
)
# A fault question asks what was wrong: read from the first word of trouble on.
_FAULT_ASKS = frozenset({"wrong"})
# Asked without naming the event ("did I pass?", "Rosa's time?"): the searched messages say.
_NAMELESS_ASKS = frozenset({"pass", "result_of"})
# A question in the present ("how's the launch doing") wants the latest word, not the first.
_ONGOING_ASKS = frozenset({"doing", "any_news"})
# Words of an event phrase that say how, not what.
_NOT_EVENT = frozenset(
    {
        "it",
        "go",
        "went",
        "do",
        "did",
        "actually",
        "really",
        "then",
        "all",
        "so",
        "far",
        "end",
        "with",
        "in",
        "at",
        "on",
        "new",
        "big",
        "whole",
        "time",
        "score",
        "result",
        "results",
        "numbers",
        "exactly",
        "overall",
        "ok",
        "okay",
    }
)


@dataclass(frozen=True)
class OutcomeAsk:
    """An outcome question: which wording asked it and the words naming the event."""

    kind: str
    terms: tuple[str, ...]

    @property
    def is_fault(self) -> bool:
        return self.kind in _FAULT_ASKS

    @property
    def is_ongoing(self) -> bool:
        return self.kind in _ONGOING_ASKS


def outcome_ask(question: str) -> OutcomeAsk | None:
    """The outcome ``question`` asks about (``None`` when it asks no outcome): "how did the
    final go?" -> ("went", ("final",))."""
    folded = fold_text(question).strip()
    for kind, pattern in _ASKS:
        match = pattern.search(folded)
        if match is None:
            continue
        event = match.groupdict().get("event") or ""
        # "mum's eye check": the possessive names whose, the rest what.
        words = [re.sub(r"'s$", "", word) for word in re.findall(r"[a-z0-9][a-z0-9'-]*", event)]
        terms = tuple(
            dict.fromkeys(
                word
                for word in words
                if word not in STOP_WORDS
                and word not in _NOT_EVENT
                and (len(word) >= 3 or any(char.isdigit() for char in word))
            )
        )
        if not terms and kind not in _NAMELESS_ASKS:
            # "How was it?", "how did it go?": the event is the conversation's, not named.
            continue
        return OutcomeAsk(kind=kind, terms=terms)
    return None


# ---------------------------------------------------------------------------------------------
# A message that reports a result
# ---------------------------------------------------------------------------------------------

# Strong: the message states how it came out. General words of results in six languages.
_RESULT_WORDS = re.compile(
    # A score set against another ("6-4", "31 - 28", "2 to nil"); not a clock or a date.
    r"(?<![\d:/.])\d{1,2}\s*[-\u2013]\s*\d{1,2}(?![\d:/.])|\b\d+\s+(?:to|a)\s+(?:nil|\d+)\b"
    # Contests: won, lost, places, rounds.
    r"|\b(?:won|win|wins|winning|winners?|lost|lose|losing|beat|beaten|drew|draw|tied"
    r"|champions?|runners?[- ]?up|podium|medal\w*|gold|silver|bronze|trophy"
    r"|(?:semi|quarter)[- ]?finals?|semis|finalists?|knocked\s+out|eliminated|qualified"
    r"|came\s+(?:first|second|third|fourth|fifth|last)|\d+(?:st|nd|rd|th)\s+(?:place|overall)"
    r"|first\s+place|second\s+place|third\s+place|made\s+(?:it\s+to\s+)?the\s+\w+"
    # Times and records.
    r"|pb|pr|personal\s+best|record|finished\s+in|ran\s+(?:a\s+)?\d|clocked|\d+:\d{2}:\d{2}"
    # Exams, interviews, applications.
    r"|passed|pass(?:ed)?\s+with|failed|fail|flunked|distinction|merit|grade|marks?"
    r"|got\s+(?:an?\s+)?[a-f]\b|got\s+(?:in|the\s+job|the\s+offer|accepted)|offer(?:ed)?"
    r"|accepted|rejected|hired|didn'?t\s+get"
    # Launches and their numbers.
    r"|live|launched|shipped|released|rolled\s+out|went\s+out"
    r"|\d[\d,.]*\s*k?\s+(?:users|customers|signups|sign-ups|downloads|installs|sales|orders"
    r"|merchants|subscribers|visitors|people|tickets|views)"
    r"|(?:up|down)\s+(?:from|by|to)\s+\S*\d|\d+(?:[.,]\d+)?\s?%"
    # Repairs and faults.
    r"|fixed|repaired|replaced|sorted|working\s+again|works\s+again|back\s+to\s+normal"
    r"|turned\s+out|the\s+(?:problem|issue|fault|culprit)\s+(?:was|is)|it\s+was\s+the"
    r"|needs?\s+(?:a\s+)?new|broken|faulty|blown|worn|leak\w*|cracked|dead"
    # Check-ups.
    r"|all\s+clear|results?\s+(?:came\s+back|are\s+in|were)|nothing\s+(?:serious|wrong)"
    r"|benign|negative|positive|diagnos\w+"
    # Trips: arrived.
    r"|made\s+it|arrived|landed\s+safe\w*|got\s+(?:here|there|home)\s+safe\w*"
    # How it went, said in general.
    r"|went\s+(?:really\s+|so\s+|super\s+|pretty\s+)?(?:well|great|fine|ok|okay|badly|brilliantly)"
    r"|(?:was|were)\s+(?:amazing|great|brilliant|awesome|fun|a\s+disaster|awful|terrible"
    r"|fantastic|a\s+success|a\s+blast)|success(?:ful)?|nailed\s+it|smashed\s+it|bombed"
    # Spanish.
    r"|ganamos|gan[oe]|ganado|perdimos|perdi[oó]?|perdido|empate|empatamos|campeon\w*"
    r"|subcampeon\w*|semifinal\w*|cuartos|final(?:es)?|aprob\w+|suspend\w+|arreglad\w+"
    r"|sali[oó]\s+(?:bien|mal|genial)|fue\s+(?:genial|un\s+exito|bien|fatal)"
    # Portuguese.
    r"|ganh\w+|venc\w+|perdemos|aprovad\w+|passei|chumb\w+|reprovad\w+|consertad\w+"
    r"|arranjad\w+|correu\s+(?:bem|mal)|foi\s+(?:otimo|incrivel|bom)"
    # Italian.
    r"|vint[oaie]|pers[oaie]|pareggi\w*|promoss\w+|bocciat\w+|riparat\w+|aggiustat\w+"
    r"|cambiat[oaie]|sostituit[oaie]|pezzo\s+nuovo|funziona|andat[oa]\s+(?:bene|male)"
    # French.
    r"|gagne|perdu|reussi|rate|admis|recale|repare|remplace|ca\s+marche|bien\s+passe"
    # German.
    r"|gewonnen|verloren|bestanden|durchgefallen|repariert|ersetzt|funktioniert|lief\s+gut)\b",
    re.IGNORECASE,
)
# Vietnamese and Indonesian, read with their accents (folded, Vietnamese "ổn" is "on"):
# done, fine, normal, won, lost, passed, failed, fixed, the result, the doctor said.
_RESULT_WORDS_ACCENTED = re.compile(
    r"\b(?:xong\s+rồi|ổn|bình\s+thường|thắng|thua|đậu|đỗ|trượt|rớt|sửa\s+xong|kết\s+quả"
    r"|bác\s+sĩ\s+(?:bảo|nói)|menang|kalah|lulus|gagal|sudah\s+beres|sudah\s+diperbaiki"
    r"|hasilnya|baik-baik\s+saja|kata\s+dokter)\b",
    re.IGNORECASE,
)
# Weak: congratulations say it went well but not how.
_CONGRATS = re.compile(
    r"\b(?:congrats|congratulations|well\s+done|so\s+proud|proud\s+of|bravo|felicidades"
    r"|enhorabuena|parabens|complimenti|felicitations|gluckwunsch|glueckwunsch|legends?)\b",
    re.IGNORECASE,
)
# A message with no word of its own ("[Photo]", "🎉🎉", "lol").
_WORDLESS = re.compile(r"^\W*(?:\[[^\]]*\]|\w{0,4})?\W*$")

STRONG = 2.0
WEAK = 0.5
SHAPE_BONUS = 1.5
NAMES_EVENT_BONUS = 1.0
# How long after the event a report is read.
REPORT_DAYS = 45
# The searched messages read for the event's mentions.
MENTIONS_READ = 12
# The messages of the event's chats read for a report.
CANDIDATES_READ = 400
QUOTE_CHARS = 220


def _statements(text: str) -> str:
    """``text`` without its questions ("Fatto! Funziona tutto?" -> "Fatto!")."""
    parts = re.split(r"(?<=[.!?])\s+|\n+", text)
    return " ".join(part for part in parts if not part.rstrip().endswith("?"))


def result_strength(text: str) -> float:
    """How plainly ``text`` reports a result: ``STRONG`` for a score, a place, a pass, a fix,
    a launch's numbers…; ``WEAK`` for congratulations alone; 0 for anything else (a question,
    an emoji, a photo)."""
    said = _statements(fold_text(text))
    if _WORDLESS.match(said):
        return 0.0
    if _RESULT_WORDS.search(said) or _RESULT_WORDS_ACCENTED.search(_statements(text)):
        return STRONG
    if _CONGRATS.search(said):
        return WEAK
    return 0.0


def _stem(word: str) -> str:
    return word[: max(4, len(word) - 2)] if len(word) > 4 else word


def _names(terms: Sequence[str], text: str) -> bool:
    folded = fold_text(text)
    return any(re.search(rf"\b{re.escape(_stem(term))}", folded) for term in terms)


# ---------------------------------------------------------------------------------------------
# The event and its report
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Event:
    mentions: tuple[Message, ...]
    # When it happens: the start of its day, or its first mention when no day is said.
    starts: datetime
    day_said: bool


def _sender(message: Message) -> str:
    if message.is_from_self:
        return "You"
    if message.sender_person is not None and message.sender_person.display_name:
        return message.sender_person.display_name
    return message.sender_name or "Someone"


def _quote(text: str) -> str:
    flat = " ".join(text.split()).replace("\u201c", '"').replace("\u201d", '"')
    return flat if len(flat) <= QUOTE_CHARS else flat[: QUOTE_CHARS - 1].rstrip() + "…"


def _said_on(message: Message, user: User) -> str:
    local = message.sent_at.astimezone(user.zoneinfo)
    return f"{local:%a} {local.day} {local:%B}"


def _event_of(
    *, user: User, ask: OutcomeAsk, hit_ids: Sequence[int], now: datetime
) -> _Event | None:
    """The event asked about: a plan read for its words when there is one (its current day),
    else the searched messages that name it (the latest day one of them sets ahead of its own
    send time, else the first mention)."""
    zone = user.zoneinfo
    mentions: list[Message] = []
    day = None
    if ask.terms and not ask.is_fault:
        read = topic_plan(user=user, terms=list(ask.terms), now=now)
        if read is not None:
            plan, _used = read
            when = plan_current_when(plan, zone)
            if when is not None and when.day is not None:
                day = when.day
            mentions = list(
                Message.objects.filter(user=user, pk__in=plan.message_ids)
                .select_related("sender_person", "chat")
                .order_by("sent_at")
            )
    if not mentions:
        rows = {
            row.pk: row
            for row in Message.objects.filter(
                user=user, pk__in=list(hit_ids)[: MENTIONS_READ * 2], sent_at__lte=now
            ).select_related("sender_person", "chat")
        }
        ordered = [rows[mid] for mid in hit_ids if mid in rows]
        if ask.terms:
            ordered = [
                row
                for row in ordered
                if _names(ask.terms, row.text) or _names(ask.terms, row.chat.title or "")
            ]
        mentions = sorted(ordered[:MENTIONS_READ], key=lambda row: row.sent_at)
    if not mentions:
        return None
    if day is None and not ask.is_fault:
        for row in reversed(mentions):
            window = message_relative_date(row.text, row.sent_at, zone, direction="future")
            if (
                window is not None
                and window.start.astimezone(zone).date() >= row.sent_at.astimezone(zone).date()
            ):
                day = window.start.astimezone(zone).date()
                break
    if day is not None:
        starts = datetime.combine(day, datetime.min.time(), tzinfo=zone)
        return _Event(mentions=tuple(mentions), starts=starts, day_said=True)
    return _Event(mentions=tuple(mentions), starts=mentions[0].sent_at, day_said=False)


@dataclass(frozen=True)
class _Owner:
    """Whose result is asked ("Tash's 10k time", "how did Ana do", "my time"): a report must
    be theirs, told by them or naming them."""

    person_ids: frozenset[int]
    names: tuple[str, ...]
    is_user: bool

    def holds(self, message: Message, *, specific: bool) -> bool:
        folded = fold_text(message.text or "")
        if any(re.search(rf"\b{re.escape(name)}\b", folded) for name in self.names):
            return True
        sent = message.is_from_self if self.is_user else message.sender_person_id in self.person_ids
        # A value of theirs ("what was Tash's time") is told by them in the first person;
        # "Congrats all, Ana ran 1:52" sent by Tash is Ana's time.
        return sent and (not specific or _FIRST_PERSON.search(folded) is not None)


_FIRST_PERSON = re.compile(r"\b(?:i|i'm|im|my|me|we|our|us)\b")
_MY = re.compile(r"\b(?:my|i)\b")


def _owner_of(*, user: User, compiled: CompiledQuery, ask: OutcomeAsk) -> _Owner | None:
    named = [person for person in compiled.people if person.name and person.person_ids]
    if named:
        ids = person_ids_expand(
            user=user, person_ids=[pk for person in named for pk in person.person_ids]
        )
        names = tuple(fold_text(person.name or "").split()[0] for person in named)
        return _Owner(person_ids=frozenset(ids), names=names, is_user=False)
    if ask.kind == "result_of" and _MY.search(fold_text(compiled.read_as)):
        first = fold_text(user.first_name or "").split()
        return _Owner(person_ids=frozenset(), names=tuple(first[:1]), is_user=True)
    return None


def _report(
    *,
    user: User,
    ask: OutcomeAsk,
    question: str,
    event: _Event,
    now: datetime,
    owner: _Owner | None = None,
) -> Message | None:
    """The message of the event's chats after it starts that reports how it came out, best
    first: a plain result over congratulations, the kind of answer asked ("numbers", a "time")
    and the event's own words counting for it; the first such report, or the latest for a
    question in the present."""
    chat_ids = list(dict.fromkeys(row.chat_id for row in event.mentions))
    # An event settled one-on-one ("can you take her to the appointment tue?") is often
    # reported by that person elsewhere (in the family group): their own messages count too.
    direct = Chat.objects.filter(user=user, pk__in=chat_ids, kind=ChatKind.DIRECT)
    partners = list(
        ChatParticipant.objects.filter(chat__in=direct).values_list(
            "person_id", "person__display_name"
        )
    )
    # The same first name saved twice ("Khoa" in a group, "Khoa Tran" one-on-one) is read
    # as the one person here: a report is their own message, not a claim about them.
    first_names = {name.split()[0] for _pk, name in partners if name and name.split()}
    named = (
        Person.objects.filter(
            user=user,
            display_name__iregex=r"^(" + "|".join(re.escape(n) for n in first_names) + r")(\s|$)",
        ).values_list("pk", flat=True)
        if first_names
        else []
    )
    people = person_ids_expand(user=user, person_ids=[*(pk for pk, _name in partners), *named])
    rows = (
        Message.objects.filter(
            Q(chat_id__in=chat_ids) | Q(sender_person_id__in=list(people), is_from_self=False),
            user=user,
            deleted_at__isnull=True,
            chat__is_excluded_from_ai=False,
            sent_at__gte=event.starts,
            sent_at__lte=min(now, event.starts + timedelta(days=REPORT_DAYS)),
        )
        .select_related("sender_person", "chat")
        .order_by("sent_at")[:CANDIDATES_READ]
    )
    shapes = answer_types(question)
    scored: list[tuple[float, Message]] = []
    for row in rows:
        if row.pk == event.mentions[0].pk:
            # The first word of it (the announcement, the fault first reported) is no report;
            # a later mention after its day may be (a channel named for it says the numbers).
            continue
        text = row.text or ""
        strength = result_strength(text)
        if strength > WEAK and _sets_a_day_ahead(row, user):
            # "Semi final is Thu 29 Oct, court 4!": a message that sets a later day announces.
            strength = WEAK
        if strength <= 0 or suspicious_text(text) or suspicious_text(row.sender_name or ""):
            continue
        if owner is not None and not owner.holds(row, specific=ask.kind == "result_of"):
            continue
        score = strength
        if shapes and any(shape.search(_statements(text)) for shape in shapes):
            score += SHAPE_BONUS
        if ask.terms and _names(ask.terms, text):
            score += NAMES_EVENT_BONUS
        scored.append((score, row))
    if not scored:
        return None
    best = max(score for score, _row in scored)
    top = [row for score, row in scored if score == best]
    return top[-1] if ask.is_ongoing else top[0]


def _sets_a_day_ahead(message: Message, user: User) -> bool:
    zone = user.zoneinfo
    window = message_relative_date(message.text or "", message.sent_at, zone, direction="future")
    return (
        window is not None
        and window.start.astimezone(zone).date() > message.sent_at.astimezone(zone).date()
    )


# Result words of other languages said in English beside the report ("Semifinales!!" ->
# "semi-finals"), so the answer states the result in the question's language.
_GLOSSES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), english)
    for pattern, english in (
        (r"\b(?:semifinal(?:es|i)?|semi-?finais|demi-?finales?|halbfinale)\b", "semi-finals"),
        (r"\b(?:cuartos|quartos|quarti|quarts)\b", "quarter-finals"),
        (r"\b(?:subcampeon\w*|vice-?campe\w*|secondi|deuxiemes?)\b", "runners-up"),
        (r"\b(?:campeon\w*|campeoes|campioni|champions?\s+de)\b", "champions"),
        (r"\b(?:ganamos|ganhamos|vinto|vinti|gagne|gewonnen)\b", "won"),
        (r"\b(?:perdimos|perdemos|perso|persi|perdu|verloren)\b", "lost"),
        (r"\b(?:aprobad[oa]s?|aprovad[oa]s?|passei|promoss[oa]|admis|bestanden)\b", "passed"),
        (r"\b(?:suspendid[oa]|chumbei|reprovad[oa]|bocciat[oa]|recale|durchgefallen)\b", "failed"),
    )
)


def _gloss(text: str) -> str:
    """The English of the result words ``text`` says in another language, "" when none."""
    folded = fold_text(text)
    said = [english for pattern, english in _GLOSSES if pattern.search(folded)]
    return ", ".join(dict.fromkeys(said))


def _event_name(ask: OutcomeAsk) -> str:
    return " ".join(ask.terms) if ask.terms else "event"


def outcome_findings(
    *, user: User, compiled: CompiledQuery, hit_ids: Sequence[int], now: datetime
) -> tuple[list[int], list[Finding]] | None:
    """For an outcome question, the messages that answer it (the report first, then the
    announcement) and the findings that lead the answer; ``None`` when ``compiled`` asks no
    outcome or no message names the event."""
    if compiled.intent not in (Intent.CONVERSATION_QA, Intent.PLAN_RECALL):
        return None
    ask = outcome_ask(compiled.read_as)
    if ask is None:
        return None
    event = _event_of(user=user, ask=ask, hit_ids=hit_ids, now=now)
    if event is None:
        return None
    zone = user.zoneinfo
    name = _event_name(ask)
    announced = event.mentions[-1]
    named = {fold_text(person.name or "") for person in compiled.people}
    topic = [term for term in ask.terms if term not in named]
    if event.day_said and event.starts.date() > now.astimezone(zone).date():
        if not all(_names([term], announced.text) for term in topic):
            # The day ahead is another event's (a plan of the same people, "he'll drive up
            # Thursday for dinner" for "the drive to <city>"): every word of it must be said.
            return None
        text = (
            f"The {name} hasn't happened yet: it is on {day_text(event.starts.date())}, so "
            "there is no result to report."
        )
        return [announced.pk], [Finding(text=text, message_ids=(announced.pk,))]
    owner = _owner_of(user=user, compiled=compiled, ask=ask)
    report = _report(
        user=user, ask=ask, question=compiled.read_as, event=event, now=now, owner=owner
    )
    if report is None:
        if not event.day_said or owner is not None:
            # No day to be after, or nothing of theirs: the searched messages answer as they
            # would (a value nobody gave is refused there).
            return None
        text = (
            f"I found no message after it ({day_text(event.starts.date())}) saying how the "
            f"{name} turned out. The latest about it: {_sender(announced)} on "
            f"{_said_on(announced, user)}: "
            f"“{_quote(announced.text)}”"
        )
        return [announced.pk], [Finding(text=text, message_ids=(announced.pk,))]
    # Stated, not quoted: the result is the answer's own sentence, as a reported turn is.
    gloss = _gloss(report.text)
    lead = (
        f"How it turned out{f' ({gloss})' if gloss else ''}: {_sender(report)} wrote on "
        f"{_said_on(report, user)}: "
        f"{_quote(report.text)}"
    )
    findings = [Finding(text=lead, message_ids=(report.pk,))]
    ids = [report.pk]
    before = [row for row in event.mentions if row.sent_at < report.sent_at]
    if before:
        # The latest word before it that names the event, else the latest before it.
        naming = [row for row in before if _names(ask.terms, row.text)]
        context = (naming or before)[-1]
        findings.append(
            Finding(
                text=(
                    f"Before it, {_sender(context)} wrote on {_said_on(context, user)}: "
                    f"“{_quote(context.text)}”"
                ),
                message_ids=(context.pk,),
            )
        )
        ids.append(context.pk)
    return ids, findings
