"""Question -> ``CompiledQuery``, deterministically: ordered patterns, word lists, one query.

The compiler never calls a model. Each step reads the question's folded text (lower-case,
accent-free, same length as the question, so spans line up), with quoted phrases masked out so
that words inside quotes are searched for and never interpreted ("see you yesterday" is text
to find, not a window):

1. intent: the first matching family of ``INTENT_PATTERNS`` (order matters and is tested);
2. time window: ``retrieval.dates.resolve_time_expression`` in the user's timezone, against
   the time of asking; bare references look back, except for plans (nearest) and requested
   actions (forward);
3. location: "in/from/at <city>" against ``retrieval.gazetteer``;
4. people: candidate names matched against the user's people and their identities in one
   query, plus descriptors (nationalities, roles, relations) from ``retrieval.lexicon``;
5. plan statuses, ranking, requested action; keywords for lexical search; the route.
"""

from __future__ import annotations

import functools
import logging
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.db import connection

from claire.accounts.models import User
from claire.ai.local.embedder import common_words
from conversations.identities import normalise_email, normalise_handle, normalise_phone
from conversations.models import (
    Chat,
    ChatKind,
    ChatParticipant,
    IdentityKind,
    Person,
    PersonIdentity,
)
from conversations.selectors import direct_chats_latest
from memory.callnames import people_called_by
from memory.kinship import (
    KIN_FORMS,
    KIN_RELATIONS,
    MARKED_KIN_WORDS,
    is_someone_elses,
    kin_relation,
    means_users_relative,
    relatives_of_user,
)
from memory.models import PersonMerge
from retrieval.dates import Direction, resolve_time_expression
from retrieval.gazetteer import CITY_FORMS
from retrieval.lexicon import (
    DESCRIPTOR_FORMS,
    NATIONALITIES,
    ROUTING_WORDS,
    STOP_WORDS,
    fold_text,
    word_set,
)
from retrieval.people_context import describing_words, narrow_people
from retrieval.question_forms import canonical_question, reading_form
from retrieval.routing import route_fallback_for, route_for
from retrieval.types import (
    ActionType,
    CompiledQuery,
    Intent,
    Location,
    PersonRef,
    PlanStatus,
    Ranking,
    RankingKind,
    RequestedAction,
    Route,
    Scope,
    TimeRange,
    TimeTarget,
)

logger = logging.getLogger(__name__)

DEFAULT_RANKING_LIMIT = 12
CATCH_UP_DEFAULT_WINDOW = "the last few days"
MAX_NAME_CANDIDATES = 16
# A question this short is read for names whatever its casing.
SHORT_QUESTION_TOKENS = 6

_EVENT_NOUNS = (
    r"dinner|lunch|breakfast|brunch|meeting|party|trip|flight|call|date|wedding|birthday|"
    r"drinks|coffee|appointment|event|game|concert|match|show|reservation|booking|visit|"
    r"meetup|hike|bbq|barbecue|picnic|housewarming|gig|interview|class|session|viewing|"
    r"holiday|vacation|movie|film|festival|ceremony|celebration|reunion|drink|catch-up|plans?|"
    r"climbing|bouldering|cinema|workout|practice|rehearsal|tasting|run|ride|"
    # What gets booked: "when is our table?", "what time are the tickets for?"
    r"table|tickets|cabin|court|theatre|theater|padel|tennis"
)
_PLAN_DAYS = (
    r"today|tonight|tomorrow|monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend"
)
# Platforms a person question may name ("who is Bo on Telegram?").
_PLATFORM_NAMES = (
    r"whatsapp|telegram|signal|imessage|sms|text|slack|discord|email|e-mail|instagram|insta"
)
# A platform's messages named by the platform ("slack messages", "whatsapps", "discord dms").
_KIND_OF_MESSAGE = (
    r"(?:whatsapp|telegram|signal|slack|discord|instagram|insta)\s+(?:messages|msgs|dms|pings)"
    r"|whatsapps|imessages|slacks|telegrams"
)
# A day written short or as a date: "sat", "thu", "sat 26 sep", "31 oct", "oct 31st".
_SHORT_DAYS = r"mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun"
_MONTH_WORDS = r"jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec"
_PLAN_DATE = (
    rf"\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTH_WORDS})[a-z]*"
    rf"|(?:{_MONTH_WORDS})[a-z]*\s+\d{{1,2}}(?:st|nd|rd|th)?\b"
)
_PLAN_DAYS_AHEAD = (
    r"tonight|tomorrow|monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend"
)
_PERSON_ATTRIBUTES = (
    r"job|work|address|number|phone|phone\s+number|email|surname|last\s+name|birthday|age"
    r"|company|role|title|partner|wife|husband|boyfriend|girlfriend|brother|sister|mother"
    r"|father|mum|mom|dad|son|daughter|kids|children|dog|cat|handle|instagram|nationality"
    r"|profession|employer|school|university|flat|apartment|house|name|full\s+name|allergy"
    r"|allergies|hometown|pet|cell|cell\s+number|mobile|mobile\s+number|e-mail|email\s+address"
    r"|contact\s+details|contact\s+info|username|user\s+name|whatsapp|telegram|signal"
)
# The verbs of a message request in Vietnamese and Indonesian, folded, with the words before
# the recipient ("nhắn tin cho", "kirim pesan ke").
VI_ID_REQUEST = (
    r"(?:(?:nhan(?:\s+tin)?|gui\s+tin(?:\s+nhan)?|tra\s+loi)(?:\s+(?:cho|voi))?|bao|noi\s+voi"
    r"|hoi|nhac(?:\s+nho)?|(?:kirim|kirimin)\s+(?:pesan|wa|chat|sms)\s+(?:ke|untuk|buat)"
    r"|(?:bilang|bilangin|ngomong)\s+(?:ke|sama|pada)|kasih\s+tahu|kasih\s+tau|kabari|kabarin"
    r"|tanya(?:in|kan)?(?:\s+(?:ke|sama))?|ingatkan|ingetin|balas|bales)"
)
_IMPERATIVE = (
    r"^\W*(?:(?:hey|hi|ok|okay)\W+)?(?:claire\W+)?"
    r"(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?|please\s+|pls\s+|help\s+me\s+(?:to\s+)?"
    r"|i\s+(?:need|want|would\s+like|'d\s+like)\s+(?:you\s+)?to\s+|let's\s+|go\s+ahead\s+and\s+)?"
    r"(?:please\s+)?"
)
# Platforms said as the verb of a request ("slack Ana that ...", "whatsapp Bea about ...",
# "signal Rolf to say ...") or as what is sent ("send Ana a whatsapp"), folded.
PLATFORM_VERBS = {
    "slack": "slack",
    "whatsapp": "whatsapp",
    "whats app": "whatsapp",
    "signal": "signal",
    "imessage": "imessage",
    "telegram": "telegram",
    "sms": "sms",
    "discord": "discord",
}
_PLATFORM_VERB = "|".join(re.escape(form).replace(r"\ ", r"\s+") for form in PLATFORM_VERBS)
# What a platform name is followed by when it is the thing asked about, not the verb: "whatsapp
# messages from Bea", "slack channels I'm in", "signal group".
_NOT_PLATFORM_VERB_OBJECT = (
    r"(?:me|us|you|what|who|when|where|how|why|whether|if|from|about|of|in|on|for|with|that"
    r"|this|which|history|thread|threads|messages?|msgs?|chats?|groups?|channels?|calls?"
    r"|conversations?|dms?|texts?|notifications?|contacts?|people|stuff|account|is|are|was"
    r"|were|has|have|had|does|do|did|says?|said|today|yesterday|tonight|lately|recently|last"
    r"|latest|recent|news|updates?|servers?|workspaces?|status|links?|photos?|pics?|files?"
    r"|settings|backups?)\b"
    # "slack ana's last message": whose messages, not whom to write to.
    r"|[\w-]+'s\b"
)
_PLATFORM_AS_VERB = re.compile(
    _IMPERATIVE + rf"(?P<name>{_PLATFORM_VERB})\s+(?!{_NOT_PLATFORM_VERB_OBJECT})(?=[\w#@])"
)
_PLATFORM_AS_OBJECT = re.compile(
    # What is sent, after an indefinite article: "the signal is weak" asks for no platform.
    rf"\b(?:an?|un|una|um|uma|une|ein|eine|einen)\s+(?:(?:quick|short|little|brief)\s+)?"
    rf"(?P<name>{_PLATFORM_VERB})"
    r"(?:\s+(?:message|msg|text|note|dm))?\b(?!\s+(?:is|was|are|were|has|had)\b)"
)


def platform_verb(folded: str) -> str | None:
    """The platform a folded request names as its verb ("slack Ana that ...", "could you
    whatsapp Bea ...") or as what is sent ("send Ana a whatsapp", "shoot Rolf a quick signal
    message", "mandale un whatsapp a Odile"); None otherwise."""
    match = _PLATFORM_AS_VERB.search(folded) or _PLATFORM_AS_OBJECT.search(folded)
    if match is None:
        return None
    return PLATFORM_VERBS[" ".join(match.group("name").split())]


_RECENCY = (
    r"last|past|recent|recently|lately|today|yesterday|this\s+(?:week|morning|weekend)|"
    r"few\s+days|while\s+(?:i|we)\s+(?:was|were)|during\s+(?:the|my|our)\s+(?:\w+\s+)?"
    r"(?:trip|holiday|holidays|vacation|travels|honeymoon)"
)


_RANKING_NUMBER_WORDS = {
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "fifteen": 15,
    "twenty": 20,
}
_RANKING_NUMBER = r"\d{1,3}|" + "|".join(_RANKING_NUMBER_WORDS)
# Ordered by how much people write, never by what a thing costs or when it happened: "by how
# much they post", "by how often each person texts", "by number of messages", "by activity".
_BY_HOW_MUCH_THEY_WRITE = (
    r"\bby\s+(?:how\s+(?:much|often)\s+(?:they|each\s+(?:one|person)|people|everyone)\s+"
    r"(?:\w+\s+)?(?:post|write|wrote|text|talk|messag|chat|speak|send|repl)\w*"
    r"|how\s+many\s+(?:messages|posts|texts)"
    r"|(?:the\s+)?(?:number|count)\s+of\s+(?:messages|posts|texts)|activity)\b"
)


@dataclass(frozen=True)
class IntentPattern:
    intent: Intent
    name: str
    regex: re.Pattern[str]
    action: ActionType | None = None


def _pattern(
    intent: Intent, name: str, pattern: str, action: ActionType | None = None
) -> IntentPattern:
    return IntentPattern(intent, name, re.compile(pattern), action)


# Tried in this order; the first match decides. Catch-up and unresolved come first because
# their phrasings overlap the others ("who is waiting on me" is not an identity question).
INTENT_PATTERNS: tuple[IntentPattern, ...] = (
    _pattern(Intent.CATCH_UP, "catch_me_up", r"\bcatch\s+(?:me\s+)?up\b"),
    _pattern(Intent.CATCH_UP, "what_did_i_miss", r"\bwhat\s+(?:did|have|'ve)\s+i\s+miss(?:ed)?\b"),
    _pattern(Intent.CATCH_UP, "fill_me_in", r"\bfill\s+me\s+in\b|\bup\s+to\s+(?:speed|date)\b"),
    _pattern(Intent.CATCH_UP, "recap", r"\brecap\b"),
    _pattern(
        Intent.CATCH_UP,
        "catch_up_other_languages",
        # Portuguese, Spanish, French and German askings of "what did I miss" / "catch me up"
        # / "what's new" (the question is folded: no accents).
        r"\bo\s+que\s+(?:e\s+que\s+)?(?:eu\s+)?(?:perdi|me\s+escapou)\b|\bp[oe]e?-?me\s+a(?:o)?\s+"
        r"(?:par|corrente|dia)\b|\batualiza-?me\b|\bo\s+que\s+(?:ha|houve)\s+de\s+novo\b"
        r"|\bque\s+(?:me\s+)?perdi\b|\bponme\s+al\s+(?:dia|corriente)\b"
        r"|\bque\s+hay\s+de\s+nuevo\b|\bque\s+(?:ha\s+pasado|paso)\s+(?:desde|mientras|esta|estos)\b"
        r"|\bqu'?est-ce\s+que\s+j'?ai\s+rate\b|\bquoi\s+de\s+neuf\b|\bmets-moi\s+a\s+jour\b"
        r"|\bwas\s+(?:habe\s+ich|hab\s+ich)\s+verpasst\b|\bwas\s+gibt'?s\s+neues\b",
    ),
    _pattern(
        Intent.CATCH_UP,
        "since_then",
        # "What happened since we got back?", "what's changed since Monday?"
        r"\b(?:what(?:'s|s|\s+has|\s+have)?\s+(?:happened|changed|been\s+happening|new)"
        r"|anything\s+new)\s+since\b"
        # "What happened after the trip?": after an event of the user's own.
        r"|\bwhat\s+(?:happened|changed|did\s+i\s+miss)\s+after\s+(?:my|our|the)\s+(?:\w+\s+)?"
        r"(?:trip|holiday|holidays|vacation|travels|honeymoon)\b",
    ),
    _pattern(
        Intent.CATCH_UP,
        "anything_to_deal_with",
        # "Anything important I missed?", "anything from Ana I need to deal with?", "anything
        # from Bo I should take care of?", "is there something I have to handle?"
        r"^\W*(?:is\s+there\s+)?(?:anything|something)\s+(?:[\w']+\s+){0,4}?(?:i\s+)?"
        r"(?:missed|miss|(?:(?:need|have|ought)\s+to|should|must|gotta|got\s+to)\s+"
        r"(?:deal\s+with|handle|take\s+care\s+of|sort\s+out|know\s+about|look\s+at|answer"
        r"|reply\s+to|respond\s+to|follow\s+up\s+on|do))\b"
        # "Did I miss anything important?", "have I missed much this week?"
        r"|^\W*(?:so\s+)?(?:did|have)\s+i\s+(?:[\w']+\s+)?miss(?:ed)?\s+(?:anything|something"
        r"|much)\b",
    ),
    _pattern(
        Intent.CATCH_UP,
        "anything_from_lately",
        # "Anything from Dr Lee this week?", "has Bo said anything lately?", "did the school
        # send anything today?": what one sender wrote in a recent stretch (without the
        # stretch, "has Bo said anything about the rent" asks about a topic).
        r"^\W*(?:is\s+there\s+|was\s+there\s+|got\s+)?(?:anything|something)\s+(?:new\s+)?"
        r"from\s+(?:[\w'.-]+\s+){1,3}?"
        rf"(?:{_RECENCY}|this\s+(?:afternoon|evening)|since)\b"
        r"|^\W*(?:so\s+)?(?:has|have|did)\s+(?!i\b|we\b|you\b)(?:[\w'.-]+\s+){1,3}?"
        r"(?:said|say|sent|send|posted|post|written|wrote|write|messaged|texted|shared)\s+"
        r"(?:me\s+|us\s+)?(?:anything|something)\s+(?:new\s+)?"
        rf"(?:{_RECENCY}|this\s+(?:afternoon|evening)|since)\b",
    ),
    _pattern(
        Intent.CATCH_UP,
        "kind_of_message_lately",
        # "work emails since monday?", "any texts from the family since the weekend",
        # "new slack messages today?", "anything on slack today?", "anything in the discord
        # this week": what came on a platform or of a kind of message in a recent stretch
        # (without the stretch, "emails about the lease" asks about a topic).
        r"^\W*(?:(?:so\s+)?(?:any|anything|got\s+any|new|my|the)\s+)?(?:new\s+|unread\s+)?"
        r"(?:[\w'-]+\s+){0,2}?(?:e-?mails?|mails|texts|text\s+messages|sms|messages|msgs|dms"
        rf"|{_KIND_OF_MESSAGE})\s+(?:(?:from|in|on)\s+(?:[\w'.-]+\s+){{1,3}}?)?"
        rf"(?:{_RECENCY}|this\s+(?:afternoon|evening)|since)\b"
        r"|^\W*(?:(?:is|was)\s+there\s+)?(?:anything|something)\s+(?:new\s+)?(?:on|in|over)\s+"
        rf"(?:the\s+|my\s+)?(?:{_PLATFORM_NAMES}|discord\s+server)\b\s*(?:(?:{_RECENCY}"
        r"|this\s+(?:afternoon|evening)|since)\b|\W*$)",
    ),
    _pattern(
        Intent.CATCH_UP,
        "whats_new",
        # "whats new" is typed without its apostrophe as often as with it.
        r"\bwhat(?:'s|s|\s+is|\s+has)\s+(?:been\s+)?(?:new|happening|going\s+on)\b"
        # "What's happening on Sunday?" asks about a plan ahead, not about recent messages.
        rf"(?!\s+(?:on\s+|this\s+|next\s+)?(?:{_PLAN_DAYS_AHEAD})\b)"
        r"|\bany\s+(?:news|updates)\b|\bwhat(?:'s|s|\s+is)\s+the\s+latest\b"
        # "Anything new in the team channel this week?", "anything new from Ana?"
        r"|^\W*(?:(?:is|was)\s+there\s+|got\s+)?anything\s+new\b",
    ),
    _pattern(
        Intent.CATCH_UP,
        "summarize_recent",
        rf"\b(?:summari[sz]e|sum\s+up|summary\s+of)\b(?=.*\b(?:{_RECENCY})\b)",
    ),
    _pattern(
        Intent.CATCH_UP,
        "what_happened_recently",
        rf"\bwhat\s+happened\s+(?:{_RECENCY}|over\s+the\s+weekend)\b",
    ),
    _pattern(
        Intent.CATCH_UP,
        "what_happened_in_chat",
        r"\bwhat\s+(?:has\s+)?happened\s+(?:in|on|across)\s+(?:the\s+|my\s+|our\s+)?"
        r"(?:[\w'-]+\s+){0,3}?(?:chat|chats|channel|channels|group|groups|thread)\b"
        # "What's been posted in the hiking group?", "what have people been saying in the team
        # channel?", "what got shared on the family chat lately?": what came in a chat.
        r"|\bwhat(?:'s|s|\s+has|\s+have|\s+got)?\s+(?:(?:people|they|everyone|folks)\s+)?"
        r"(?:been\s+)?(?:posted|said|saying|shared|sharing|sent|posting|talking\s+about)\s+"
        r"(?:in|on)\s+(?:the\s+|my\s+|our\s+)?(?:[\w'-]+\s+){0,3}?"
        r"(?:chat|chats|channel|channels|group|groups|thread|server)\b"
        # "... about the rent" asks about a topic, not what came.
        r"(?!.*\b(?:about|regarding|on\s+the\s+subject)\b)"
        # "What's gone up in the band chat?", "anything posted in the hiking group?", "anything
        # come in on the work channel?": other verbs of arriving, and "anything" as subject.
        r"|\b(?:what(?:'s|s|\s+has|\s+have)?|(?:has\s+|is\s+)?(?:anything|something))\s+"
        r"(?:(?:been|new|else)\s+)?(?:posted|gone\s+up|went\s+up|come\s+in|came\s+in|come\s+up"
        r"|dropped|shared|sent|happened|happening|going\s+on)\s+(?:in|on|to)\s+"
        r"(?:the\s+|my\s+|our\s+)?(?:[\w'-]+\s+){0,3}?"
        r"(?:chat|chats|channel|channels|group|groups|thread|server)\b"
        r"(?!.*\b(?:about|regarding|on\s+the\s+subject)\b)",
    ),
    _pattern(
        Intent.CATCH_UP,
        "rundown_of_chat",
        # "Give me a rundown of the family group", "a quick summary of the team channel",
        # "summarise the book club chat", "the gist of the work thread this week": what came in
        # a chat or a recent stretch, not a topic.
        r"\b(?:rundown|run-down|roundup|round-up|digest|overview|highlights|gist|tl;?dr|summary"
        r"|summari[sz]e|sum\s+up|resumen|resume|resumo|zusammenfassung)\b\s+(?:of\s+|on\s+"
        r"|from\s+|for\s+|de\s+|do\s+|da\s+|del\s+|des\s+)?(?:what(?:'s)?\s+(?:happened|been"
        r"\s+happening|went\s+on)\s+in\s+)?(?:the\s+|my\s+|our\s+|la\s+|le\s+|el\s+|o\s+|a\s+)?"
        r"(?:[\w'-]+\s+){0,3}?(?:chat|chats|channel|channels|group|groups|thread|server|grupo"
        r"|groupe|gruppe|canal|conversa|conversacion|conversation)\b"
        r"(?!.*\b(?:about|regarding|sobre|sur|uber)\b)",
    ),
    _pattern(Intent.UNRESOLVED, "unresolved", r"\bunresolved\b|\bloose\s+ends\b"),
    _pattern(
        Intent.UNRESOLVED,
        "open_loops",
        r"\bopen\s+(?:loops?|questions|items|threads|issues|requests|tasks)\b",
    ),
    _pattern(
        Intent.UNRESOLVED,
        "not_replied",
        r"\b(?:what|who|which)\b(?:\s+[\w']+){0,4}?\s+(?:have|haven't|has|hasn't|did|didn't)\s+i\s+"
        r"(?:not\s+|never\s+|yet\s+to\s+)?(?:replied|responded|answered|gotten\s+back|got\s+back"
        r"|reply|respond|answer|get\s+back)\b",
    ),
    _pattern(
        Intent.UNRESOLVED,
        "forgot_to_reply",
        r"\b(?:forgot|forget|need|needs|still\s+have)\s+to\s+(?:reply|respond|answer|get\s+back)\b"
        r"|\bhaven't\s+(?:replied|responded|answered)\b",
    ),
    _pattern(
        Intent.UNRESOLVED,
        "waiting_on_me",
        r"\bwaiting\s+(?:on|for)\s+(?:me|my\s+(?:reply|answer|response))\b"
        r"|\bwaiting\s+(?:on|for)\s+(?:a\s+|an\s+)?(?:reply|answer|response)\s+from\s+me\b"
        r"|\bwho\s+am\s+i\s+waiting\s+(?:on|for)\b"
        # "who am I leaving on read?", "who have I ghosted?", "who did I leave hanging?"
        r"|\bwho\s+(?:am|have|did|do)\s+i\s+(?:[\w']+\s+)?(?:leave|leaving|left)\s+(?:on\s+read"
        r"|on\s+seen|hanging|unanswered)\b|\bwho\s+(?:am|have|did)\s+i\s+(?:been\s+)?ghost(?:ed|ing)?\b",
    ),
    _pattern(
        Intent.UNRESOLVED,
        "owe_reply",
        r"\bowe\s+(?:[\w']+\s+)?(?:a\s+)?(?:reply|response|answer|message|call)\b"
        r"|\b(?:need|needs)\s+(?:a\s+)?(?:reply|response|answer)\s+from\s+me\b",
    ),
    _pattern(
        Intent.UNRESOLVED,
        "what_do_i_owe",
        r"\bwhat\s+(?:do|did|else\s+do)\s+i\s+(?:still\s+)?owe\b"
        r"|\b(?:do|did)\s+i\s+(?:still\s+)?owe\s+(?:[\w']+\s+){0,3}?(?:anything|something"
        r"|money)\b"
        # "anything I still owe Ana before the trip?"
        r"|\b(?:anything|something)\s+(?:else\s+)?i\s+(?:still\s+)?owe\b"
        # "who am I owing money to?", "who do I still owe?", "am I in debt to anyone?"
        r"|\bwho\s+(?:am|do|did)\s+i\s+(?:still\s+)?ow(?:e|ing)\b"
        r"|\b(?:am|do)\s+i\s+(?:still\s+)?(?:owe|owing|in\s+debt\s+to)\s+(?:anyone|anybody"
        r"|people|someone|somebody)\b"
        # "¿a quién le debo dinero?", "pra quem eu devo dinheiro?", "à qui je dois de
        # l'argent ?", "wem schulde ich noch Geld?" ("debo"/"devo"/"dois" alone is "must").
        r"|\b(?:a|pra|para)\s+(?:quien|quem|qui|chi)\s+(?:le\s+|eu\s+|je\s+|est-ce\s+que\s+je\s+)?"
        r"(?:debo|devo|dois)\b(?=.*\b(?:dinero|plata|dinheiro|grana|argent|soldi)\b)"
        r"|\bwem\s+schulde\s+ich\b",
    ),
    _pattern(
        Intent.UNRESOLVED,
        "did_they_reply",
        # "Did Rui ever reply about the boiler?" / "Has Tom got back to me?": someone else's
        # reply to the user, a loop of the user's requests ("did I reply" is the rule above).
        r"^\W*(?:has|have|did)\s+(?!i\b|we\b)(?:[\w'@.-]+\s+){1,3}?(?:ever\s+|yet\s+)?"
        r"(?:replied|reply|responded|respond|answered|answer|got\s+back|gotten\s+back"
        r"|get\s+back|come\s+back|came\s+back)\b",
    ),
    _pattern(
        Intent.UNRESOLVED,
        "not_got_back_to_me",
        r"\b(?:hasn't|haven't|has\s+not|have\s+not|didn't|never)\s+(?:got|gotten|come|came)\s+"
        r"back\s+to\s+me\b|\bwho\s+(?:hasn't|haven't|didn't|never)\s+(?:replied|responded"
        r"|answered)\b",
    ),
    _pattern(
        Intent.UNRESOLVED,
        "promises",
        r"\b(?:what|which)\s+(?:did|have|had)\s+i\s+(?:promise|promised|commit|committed"
        r"|agree|agreed)\s+(?:to\s+do\s+)?(?:and|but)\s+(?:not|never|didn't|haven't)\b"
        r"|\b(?:unkept|broken|open)\s+promises?\b"
        # "what did I promise (to do for) Ana?", "what did I say I'd bring to the picnic?",
        # "what did I agree to do for Tom?": what the user took on, done or not.
        r"|\bwhat\s+(?:did|have|had)\s+i\s+(?:promise|promised|agree|agreed|offer|offered"
        r"|commit|committed)\b"
        r"|\bwhat\s+(?:did|have|had)\s+i\s+(?:say|said|tell\s+[\w'-]+|told\s+[\w'-]+)\s+"
        r"(?:i['\u2019]d|i\s+would|i\s+will|i['\u2019]ll|i\s+was\s+going\s+to|i\s+could)\s+\w"
        # "anything at work I said I'd do and haven't?", "stuff I promised to do but didn't":
        # the user's promises still open.
        r"|\b(?:anything|something|things?|stuff|what)\b(?:\s+[\w']+){0,4}?\s+i\s+"
        r"(?:said|promised|agreed|offered)\s+(?:i['\u2019]d|i\s+would|i\s+will|i['\u2019]ll|to)\s+"
        r"(?:[\w']+\s+){0,3}?(?:and|but)\s+(?:haven't|have\s+not|havent|didn't|did\s+not|didnt"
        r"|never|not\s+yet|still\s+haven't)\b",
    ),
    _pattern(Intent.UNRESOLVED, "pending", r"\b(?:pending|outstanding|unanswered)\b"),
    _pattern(
        Intent.UNRESOLVED,
        "still_open",
        # "What's still open with Noor?", "anything open with Sam?", "what's left to do?"
        r"\b(?:what(?:'s|\s+is|\s+are)|anything|is\s+(?:there\s+)?anything)\s+(?:still\s+)?"
        r"(?:open|left\s+open|unfinished|left\s+to\s+do|hanging)\b"
        # "which things are still left hanging?", "what's up in the air?", "what have I
        # not closed out yet?"
        r"|\b(?:what|which|anything)\b(?:'s)?(?:\s+[\w']+){0,3}?\s+(?:still\s+)?(?:left\s+)?"
        r"(?:hanging|dangling|up\s+in\s+the\s+air|undone|unsettled|not\s+(?:yet\s+)?"
        r"(?:closed|wrapped|sorted|settled|dealt\s+with))\b",
    ),
    _pattern(
        Intent.UNRESOLVED,
        "did_they_deliver",
        # "Did Luis send the invoice?", "has Sam paid me back?": the other side of the user's
        # request, answered yes or no from what they sent.
        r"^\W*(?:so\s+)?(?:did|has|have)\s+(?!i\b|we\b|you\b)(?:[\w'@.-]+\s+){1,2}?"
        r"(?:ever\s+|already\s+|actually\s+|finally\s+)*(?:send|sent|pay|paid|return|returned"
        r"|share|shared|forward|forwarded|transfer|transferred|venmo|venmo'd|upload|uploaded"
        r"|post|posted|mail|mailed|email|emailed|drop|dropped|reimburse|reimbursed"
        # "did Bo pick up my parcel?", "has Bo collected the keys?"
        r"|pick\s+up|picked\s+up|pick\s+\w+\s+up|picked\s+\w+\s+up|collect|collected"
        r"|fetch|fetched)\b"
        r"(?=.*\b(?:me|my|back|the|it|them)\b)"
        # "did Bo ever give me back my lamp?", "has Bo brought my drill back?"
        r"|^\W*(?:so\s+)?(?:did|has|have)\s+(?!i\b|we\b|you\b)(?:[\w'@.-]+\s+){1,2}?"
        r"(?:ever\s+|already\s+|actually\s+|finally\s+)*(?:give|gave|given|bring|brought"
        r"|hand|handed)\b(?=.*\b(?:me|my|back)\b)",
    ),
    _pattern(
        Intent.UNRESOLVED,
        "asked_me_to",
        # "What did Bo ask me to pick up?", "what did my aunt want me to bring?": a request
        # made of the user, answered from the ask itself.
        r"^\W*(?:so\s+)?what\s+(?:did|has|had)\s+(?!i\b|we\b|you\b)(?:[\w'@.-]+\s+){1,2}?"
        r"(?:ask|asked|want|wanted|need|needed|tell|told|remind|reminded)\s+me\s+to\b",
    ),
    _pattern(
        Intent.UNRESOLVED,
        "did_they_say_if",
        # "Did Bo ever say if he can drive me?", "has Bo told me whether it's on?": the answer
        # to the user's request, yes or no from whether it came.
        r"^\W*(?:so\s+)?(?:did|has|have)\s+(?!i\b|we\b|you\b)(?:[\w'@.-]+\s+){1,2}?"
        r"(?:ever\s+|already\s+|actually\s+|finally\s+|yet\s+)*(?:say|said|tell\s+me|told\s+me"
        r"|let\s+me\s+know|confirm|confirmed)\s+(?:yet\s+|already\s+|back\s+)?(?:if|whether)\b",
    ),
    _pattern(
        Intent.UNRESOLVED,
        "did_they_get_back",
        # "Has Kai got his drill back?", "did Ana ever get the charger back?": what the user
        # holds or owes reaching the person, answered yes or no from the user's promise.
        r"^\W*(?:so\s+)?(?:did|has|have)\s+(?!i\b|we\b|you\b)(?:[\w'@.-]+\s+){1,3}?"
        r"(?:ever\s+|already\s+|finally\s+|actually\s+)*(?:got|gotten|get|received|receive)\s+"
        r"(?:his|her|their|the|its|my)\s+(?:[\w'-]+\s+){0,3}?back\b",
    ),
    _pattern(
        Intent.UNRESOLVED,
        "did_i_do",
        # "Did I ever send Ana the photos?", "Have I paid Rui back?", "Did I reply to Tom?":
        # whether one of the user's loops is closed, answered yes or no.
        r"^\W*(?:so\s+)?(?:did|have|had|has)\s+i\s+(?:ever\s+|already\s+|actually\s+|yet\s+"
        r"|finally\s+|not\s+|never\s+)*(?:pay|paid|send|sent|give|gave|return|returned|reply"
        r"|replied|respond|responded|answer|answered|get\s+back|got\s+back|gotten\s+back|share"
        r"|shared|forward|forwarded|email|emailed|call|called|write|written|wrote|deliver"
        r"|delivered|finish|finished|do|done|did|pass|passed|tell|told|review|reviewed|bring"
        r"|brought|return|returned|lend|lent|book|booked|upload|uploaded|post|posted|drop"
        r"|dropped|print|printed|sign|signed|scan|scanned|order|ordered|transfer|transferred"
        r"|venmo|venmo'd|submit|submitted|invite|invited|introduce|introduced|mail|mailed|text"
        r"|texted|message|messaged|buy|bought|reimburse|reimbursed|settle|settled)\b",
    ),
    _pattern(
        Intent.UNRESOLVED,
        "did_i_receive",
        # "Did I ever get the counts?", "have I heard back about the lease?": the other side of
        # the user's request, answered yes or no from what arrived.
        r"^\W*(?:so\s+)?(?:did|have|had)\s+i\s+(?:ever\s+|already\s+|actually\s+|yet\s+"
        r"|finally\s+)*(?:get|got|gotten|receive|received|hear\s+back|heard\s+back)\b"
        r"(?!\s+back\s+to\b)",
    ),
    _pattern(
        Intent.UNRESOLVED,
        "was_it_settled",
        # "Was the refund ever sorted out?", "has the leak been fixed?": whether one thing the
        # user asked for got settled, whoever settled it.
        r"^\W*(?:so\s+|and\s+)?(?:was|were|is|has|have|did)\s+(?!i\b|we\b|you\b)"
        r"(?:[\w'-]+\s+){1,7}?(?:ever\s+|already\s+|finally\s+|actually\s+|yet\s+)*"
        r"(?:been\s+|get\s+|got\s+)?(?:sorted|resolved|settled|fixed|approved|granted|refunded"
        r"|dealt\s+with|taken\s+care\s+of)\b",
    ),
    _pattern(
        Intent.ACTION_REQUEST,
        "remind_me",
        _IMPERATIVE + r"(?:remind\s+me\s+(?!(?:what|who|when|where|how|which|why|whether|if"
        r"|of)\b)|(?:set|add|create)\s+(?:up\s+)?a\s+reminder\b)",
        ActionType.CREATE_REMINDER,
    ),
    _pattern(
        Intent.ACTION_REQUEST,
        "invite",
        _IMPERATIVE + r"(?:invite\b|(?:send|draft|write)\s+(?:an?\s+|the\s+)?invit(?:e|ation)\b)",
        ActionType.SEND_INVITE,
    ),
    _pattern(
        Intent.ACTION_REQUEST,
        "schedule",
        _IMPERATIVE + r"(?:(?:schedule|book|set\s+up|arrange|organi[sz]e|plan)\s+"
        rf"(?:an?\s+|the\s+|our\s+|my\s+)?(?:[\w']+\s+)?(?:{_EVENT_NOUNS}|table)\b"
        r"|(?:add|put)\s+.+\s+(?:to|in|on)\s+(?:my|the)\s+calendar\b)",
        ActionType.SCHEDULE_EVENT,
    ),
    _pattern(
        Intent.ACTION_REQUEST,
        "reply",
        _IMPERATIVE + r"(?:(?:reply|respond|write\s+back|get\s+back)\b|answer\s+(?!me\b)"
        r"|(?:draft|write|compose|prepare|send)\s+(?:an?\s+|my\s+)?(?:[\w-]+\s+)?"
        r"(?:reply|response|answer)\b)",
        ActionType.DRAFT_OUTREACH,
    ),
    _pattern(
        Intent.ACTION_REQUEST,
        "outreach",
        _IMPERATIVE + r"(?:(?:draft|write|compose|prepare|send)\b"
        r"|(?:text|message|email|dm|ping|contact|tell|ask|wish|congratulate|thank|remind)"
        r"\s+(?!(?:me|us|what|who|when|where|how|why|whether|if|from|about|of|in|on|for|with"
        r"|that|this|which|history|thread)\b)"
        r"|(?:reach\s+out|get\s+in\s+touch|follow\s+up|check\s+in)\s+(?:to|with)\b"
        r"|(?:nudge|poke)\s+(?!(?:me|us)\b)"
        # "slack Ana that ...", "whatsapp the climbing group ...", "signal Rolf to say ...".
        rf"|(?:{_PLATFORM_VERB})\s+(?!{_NOT_PLATFORM_VERB_OBJECT})(?=[\w#@])"
        # "say happy birthday to Ines", "apologise to Ines for ...".
        r"|say\s+(?!(?:what|who|when|where|how|why|whether|if|that|about)\b)(?:[\w'!-]+\s+){1,4}?"
        r"to\s+(?!(?:me|us)\b)\w"
        r"|apologi[sz]e\s+to\s+(?!(?:me|us)\b)\w"
        # "drop Ines a line", "shoot Ines a quick text", "give the team a heads-up".
        r"|(?:drop|shoot|give|fire\s+off)\s+(?!(?:me|us)\b)(?:[\w'-]+\s+){1,4}?(?:an?|the)\s+"
        r"(?:(?:quick|short|little|brief)\s+)?(?:(?:" + _PLATFORM_VERB + r")\s+)?"
        r"(?:line|message|text|note|e-?mail|dm|shout|heads[\s-]?up|" + _PLATFORM_VERB + r")\b"
        # "post in #design that ...", "announce in the band chat ...".
        r"|(?:post|announce|share)\s+(?:it\s+|this\s+)?(?:in|on|to)\s+(?:the\s+|my\s+|our\s+)?#?\w"
        # "let Ines know the plumber moved", "let the book club know ...": a message to
        # someone, not to the user.
        r"|let\s+(?!(?:me|us|you|it|that|this|them)\b)(?:[\w'#-]+\s+){0,4}?[\w'-]+\s+know\b)",
        ActionType.DRAFT_OUTREACH,
    ),
    _pattern(
        Intent.ACTION_REQUEST,
        "outreach_elsewhere",
        # The same requests in Spanish, French, Portuguese and German (folded: no accents):
        # "dile a Marta que ...", "ecris a Paul ...", "manda uma mensagem a Rita ...",
        # "schreib Lutz ...".
        _IMPERATIVE + r"(?:(?:dile|digale|decile|escribele|escribe|mandale|enviale|preguntale"
        r"|recuerdale|avisale|contestale|respondele)\s+(?:un\s+(?:mensaje|correo|whatsapp)\s+)?"
        r"(?:a|al)\s+\w"
        r"|(?:manda|envia|escribe)(?:le)?\s+(?:un|una|uma)\s+(?:mensaje|correo|mensagem|e-?mail)\s+"
        r"(?:a|al|ao|à|para)\s+\w"
        r"|(?:ecris|ecrivez|envoie|envoyez|dis|dites|demande|demandez|rappelle|rappelez|reponds"
        r"|repondez)\s+(?:un\s+(?:message|mail|texto|sms)\s+)?(?:a|au|aux)\s+\w"
        r"|(?:diz|pergunta|lembra|escreve|responde)\s+(?:a|ao|à|para\s+[ao]?)\s*\w"
        r"|(?:schreib|schreibe|sag|sage|frag|frage|erinnere)\s+(?!mir\b|mich\b|uns\b)\w)",
        ActionType.DRAFT_OUTREACH,
    ),
    _pattern(
        Intent.ACTION_REQUEST,
        "outreach_vi_id",
        # The same requests in Vietnamese and Indonesian (folded: no tone marks): "nhắn (tin
        # cho) Lan ...", "bảo Lan ...", "nói với Lan ...", "hỏi Lan ...", "nhắc Lan ...",
        # "trả lời Lan ..."; "kirim pesan ke Sari ...", "bilang ke Sari ...", "kasih tahu Sari
        # ...", "tanya Sari ...", "ingatkan Sari ...", "balas Sari ...".
        _IMPERATIVE + VI_ID_REQUEST + r"\s+(?!(?:toi|minh|aku|saya|gue)\b)\w",
        ActionType.DRAFT_OUTREACH,
    ),
    _pattern(
        Intent.PEOPLE_RANKING,
        "talk_to_most",
        r"\bwho\s+(?:do|did|have|'ve)\s+i\s+(?:[\w']+\s+){0,2}?(?:talk|talked|text|texted|message"
        r"|messaged|chat|chatted|speak|spoken|spoke|write|written)\s+(?:to\s+|with\s+)?"
        r"(?:the\s+)?most\b"
        r"|\bwho\s+(?:talks|texts|messages|writes|chats)\s+(?:to\s+|with\s+)?me\s+(?:the\s+)?most\b"
        # The people named before the verb: "the two friends I text most?", "people I've
        # messaged the most this month".
        rf"|\b(?:(?:top|{_RANKING_NUMBER})\s+)?(?:people|persons|friends|contacts)\s+"
        r"(?:that\s+|who\s+)?i(?:'ve)?\s+(?:[\w']+\s+){0,2}?(?:talk|talked|text|texted|message|messaged"
        r"|chat|chatted|speak|spoken|spoke|write|written)\s+(?:to\s+|with\s+)?(?:the\s+)?most\b",
    ),
    _pattern(
        Intent.PEOPLE_RANKING,
        "closest_friends",
        r"\bwho\s+(?:is|are|'s|'re)\s+my\s+(?:closest|best|top)\b"
        rf"|\b(?:closest|best|top(?:\s+(?:{_RANKING_NUMBER}))?)\s+(?:friends|people|contacts"
        r"|relationships)\b"
        r"|\brank\s+(?:my\s+)?(?:friends|contacts|people|relationships)\b"
        # "rank the book club people by how much they post", "sort everyone in the group by
        # how often they write": a ranking verb, then who, then by how much or how often.
        rf"|\b(?:rank|order|sort)\s+(?:[\w'&-]+\s+){{0,6}}?{_BY_HOW_MUCH_THEY_WRITE}"
        r"|\b(?:rank|order|sort)\s+(?:the\s+|all\s+(?:the\s+)?)?(?:[\w'&-]+\s+){0,4}?"
        r"(?:people|members|folks|friends|contacts|everyone|everybody)\b"
        r"|\bmost\s+(?:active|frequent)\s+(?:contacts?|chats?|people|friends?)\b",
    ),
    _pattern(
        Intent.PEOPLE_RANKING,
        "neglecting",
        r"\bneglect(?:ing|ed)?\b|\bwho\s+(?:have|has)\s+i\s+been\s+ignoring\b"
        r"|\b(?:lost|losing|fallen\s+out\s+of|out\s+of)\s+touch\b"
        r"|\bwho\s+(?:haven't|have)\s+i\s+(?:not\s+)?(?:talked|spoken|texted|messaged|heard\s+from"
        r"|caught\s+up\s+with|seen)\s*(?:to\b|with\b)?\s*(?:in\s+|for\s+)?(?:a\s+while|ages|a\s+long\s+time"
        r"|forever|months|weeks|lately|recently)\b",
    ),
    # Any wording that asks which people ("who", "which two people", "whom") are the most
    # something in conversation ("talk", "message", "active", "hear from"): "which two people
    # did I message most on Slack?", "who's most active in the group?", "who writes to me more
    # than anyone?". Three conditions anywhere in the question, in any order.
    _pattern(
        Intent.PEOPLE_RANKING,
        "most_by_count",
        r"^(?=.*(?:\bwho(?!\s+(?:said|told|asked|sent|wrote|mentioned|posted|shared)\b)|\bwhom\b"
        r"|\bwhich\s+(?:[\w']+\s+){0,2}?(?:people|person|friends?|contacts?|ones?|members?"
        r"|colleagues?|co-?workers?|relatives?)\b))"
        r"(?=.*\b(?:talk|text|messag|chat|speak|spoke|writ|wrote|call|dm|hear|heard|repl|active"
        r"|post|sen[dt]|email)\w*)"
        r"(?=.*\b(?:the\s+)?most\b(?!\s+(?:recent|recently|lately|last|important)\b)"
        r"|.*\bmore\s+than\s+anyone\b)",
    ),
    _pattern(
        Intent.IDENTITY_LOOKUP,
        "who_was_the",
        r"^\W*(?:so\s+)?who(?:\s+(?:was|is|were)|'s)\s+(?:the|that|this|a|an)\s",
    ),
    _pattern(
        Intent.IDENTITY_LOOKUP,
        "whats_the_name",
        r"\bwhat(?:'s|\s+is|\s+was)\s+(?:the\s+|his\s+|her\s+|their\s+)?name\b"
        r"|\bwhat(?:'s|\s+is|\s+was)\s+(?:[\w']+\s+){1,4}?called\s*\??\s*$"
        r"|\b(?:forgot|forget|can't\s+remember|don't\s+remember)\s+(?:the\s+|his\s+|her\s+)?name\b",
    ),
    _pattern(
        Intent.IDENTITY_LOOKUP,
        "remind_me_who",
        r"\bremind\s+me\s+who\b|\bwho\s+was\s+it\s+that\b|\bdo\s+you\s+(?:know|remember)\s+who\b"
        r"|\bwho\s+(?:did|have)\s+(?:i|we)\s+(?:meet|met)\b"
        # "How do I know Leo?", "how did we meet Ana?", "who is Ana to me?"
        r"|^\W*how\s+(?:do|did)\s+(?:i|we)\s+(?:know|meet)\s+(?!(?:if|when|what|whether|that)\b)"
        r"|^\W*who(?:'s|\s+is|\s+was)\s+[^\s?]+(?:\s+[^\s?]+)?\s+to\s+me\b",
    ),
    _pattern(
        Intent.IDENTITY_LOOKUP,
        "person_facts",
        r"\bwhere\s+(?:does|did|do|is|was|are)\s+(?:[\w']+\s+){1,3}?(?:live|living|lived|work"
        r"|working|worked|stay|staying|come\s+from|moving|moved|move|grow\s+up|study|studying)\b"
        rf"|\bwhat(?:'s|s|\s+is|\s+was|\s+are|\s+were)\s+(?:[\w@.+-]+\s+){{0,2}}?[\w@.+-]+'s?\s+"
        rf"(?:new\s+|current\s+|old\s+|real\s+|full\s+|actual\s+|proper\s+|legal\s+)?"
        rf"(?:{_PERSON_ATTRIBUTES})\b"
        # The attribute before its person: "what's the surname of the Rosa I sail with?".
        r"|\bwhat(?:'s|s|\s+is|\s+was)\s+the\s+(?:real\s+|full\s+|last\s+|first\s+|middle\s+"
        r"|actual\s+|proper\s+|legal\s+|maiden\s+)(?:name)\s+of\b|\bwhat(?:'s|s|\s+is|\s+was)\s+the\s+(?:surname|e-?mail"
        r"|e-?mail\s+address|phone\s+number|cell\s+number|mobile\s+number|birthday)\s+of\b"
        # "the Rosa I climb with, what's her last name?": the person named before.
        r"|\bwhat(?:'s|s|\s+is|\s+was)\s+(?:his|her|their)\s+"
        r"(?:real\s+|full\s+|last\s+|new\s+|actual\s+|proper\s+|legal\s+)?"
        r"(?:surname|last\s+name|full\s+name|real\s+name|email|e-mail|email\s+address"
        r"|number|phone\s+number|cell|handle|job)\b"
        r"|\bwhat\s+does\s+(?:[\w']+\s+){1,3}?do\s+(?:for\s+(?:a\s+)?(?:living|work)|now)\b"
        # "What does Ana do?" as the whole question: her occupation.
        r"|^\W*what\s+does\s+(?:[\w'-]+\s+){1,3}?do\s*\?*\s*$"
        # Portuguese, Spanish, French and German askings of a job or a home ("o que faz a
        # Ana?", "¿a qué se dedica Ana?", "onde mora o Rui?", "où habite Léa ?").
        r"|^\W*o\s+que\s+(?:e\s+que\s+)?(?:a\s+|o\s+)?[\w'-]+\s+faz\b|^\W*o\s+que\s+faz\s+"
        r"|\ba\s+que\s+se\s+dedica\b|^\W*(?:en\s+)?(?:que|donde)\s+trabaja\b|^\W*que\s+hace\s+\w+"
        r"|^\W*(?:onde|donde|ou)\s+(?:e\s+que\s+)?(?:mora|vive|trabalha|trabaja|habite|travaille)\b"
        r"|^\W*(?:wo|was)\s+(?:wohnt|arbeitet|macht)\b|\bquel\s+est\s+(?:le\s+)?(?:metier|travail)\b"
        # "Where's Ana from (originally)?", "what is Rui allergic to?"
        r"|^\W*where(?:'s|\s+is|\s+was|\s+are)\s+(?:[\w']+\s+){1,3}?(?:originally\s+)?from\b"
        r"|\b(?:is|are|was|'s)\s+(?:[\w']+\s+){1,3}?allergic\b"
        # "Which company did Clara join?", "Which office is Tom in now?"
        r"|^\W*(?:which|what)\s+(?:company|office|firm|employer|team|school|university)\s+"
        r"(?:is|was|does|did|do|has|had)\b",
    ),
    _pattern(
        Intent.IDENTITY_LOOKUP,
        "which_person",
        r"^\W*which\s+(?:of\s+my\s+)?(?:[\w']+\s+)?(?:colleagues?|coworkers?|friends?|person"
        r"|guy|girl|woman|man|lady|contact|one|neighbou?rs?|cousins?|relatives?)\b",
    ),
    _pattern(
        Intent.IDENTITY_LOOKUP,
        "same_person",
        # "Is 'Dad mobile' the same person as Jon Reyes?", "are Bo and Bo Lind the same guy?"
        r"^\W*(?:is|was)\s+.+?\s+(?:really\s+|also\s+|actually\s+)?the\s+same\s+"
        r"(?:person\s+|people\s+|guy\s+|girl\s+|man\s+|woman\s+|contact\s+|one\s+)?as\b"
        r"|^\W*(?:are|were)\s+.+?\s+and\s+.+?\s+(?:really\s+|actually\s+)?"
        r"(?:the\s+same\s+(?:person|people|guy|girl|man|woman|contact|one)|one\s+and\s+the\s+same)\b",
    ),
    _pattern(
        Intent.IDENTITY_LOOKUP,
        "who_is_name_other_languages",
        # "Quem é a Ana?", "¿quién es Rui?", "qui est Léa ?", "wer ist Jonas?"
        r"^\W*(?:quem\s+e|quien\s+es|qui\s+est|wer\s+ist)\s+(?:a\s+|o\s+)?[^\s?]+(?:\s+[^\s?]+)?\s*\?*\s*$",
    ),
    _pattern(
        Intent.IDENTITY_LOOKUP,
        "who_is_name",
        # "Who is Ana?", "who's Ana Lima?", "who is Sam from work?", "who is Bea 🌻 on
        # Telegram?", "who's Bo in my contacts?"
        r"^\W*who(?:'s|\s+is|\s+was)\s+(?!\w+ing\b)[^\s?]+(?:\s+[^\s?]+){0,2}?"
        # ... "who is Alex from book club?", "who's Sam from the running group?"
        r"(?:\s+(?:from|at)\s+(?:the\s+|my\s+)?[^\s?]+(?:\s+[^\s?]+){0,2}?)?"
        r"(?:\s+(?:on|in)\s+(?:my\s+)?(?:contacts|phone|" + _PLATFORM_NAMES + r"))?\s*\?*\s*$",
    ),
    _pattern(
        Intent.PLAN_RECALL,
        "what_did_we_decide",
        r"\bwhat\s+(?:did|have|had|'ve)\s+(?:[\w']+\s+){1,3}?(?:finally\s+|end\s+up\s+)?"
        r"(?:plan|planned|arrange|arranged|book|booked|organi[sz]e|organi[sz]ed)\b"
        r"|\bwhat\s+(?:we|they|you)\s+(?:[\w']+\s+)?(?:planned|arranged|booked)\b"
        # Deciding is a plan only when it is about an event or a day ("dinner on Friday");
        # "what did we decide about pricing" asks about a conversation.
        r"|\bwhat\s+(?:did|have|had|'ve)\s+(?:[\w']+\s+){1,3}?(?:finally\s+|end\s+up\s+)?"
        r"(?:decide|decided|agree|agreed|settle|settled|choose|chose|pick|picked)\b"
        rf"(?=.*\b(?:{_EVENT_NOUNS}|{_PLAN_DAYS})\b)"
        r"|\bwhat\s+(?:we|they|you)\s+(?:[\w']+\s+)?(?:decided|agreed|settled)\b"
        rf"(?=.*\b(?:{_EVENT_NOUNS}|{_PLAN_DAYS})\b)",
    ),
    _pattern(
        Intent.PLAN_RECALL,
        "the_plan",
        r"\bwhat(?:'s|\s+is|\s+was|\s+are|\s+were)\s+(?:the|our|my)\s+plans?\b"
        # "What's my flight now?", "what's the dinner again?": one plan as it stands.
        rf"|^\W*what(?:'s|s|\s+is|\s+are)\s+(?:the|our|my)\s+(?:{_EVENT_NOUNS})\b"
        r"(?:(?:\s+[\w']+){0,4}?\s+(?:now|again)\b|\s*\?*\s*$)"
        rf"|\bwhat\s+was\s+decided\b(?=.*\b(?:{_EVENT_NOUNS}|{_PLAN_DAYS})\b)"
        rf"|\bwhat\s+happened\s+(?:with|to)\s+(?:[\w']+\s+){{0,3}}?(?:{_EVENT_NOUNS})\b",
    ),
    _pattern(
        Intent.PLAN_RECALL,
        "when_is_event",
        r"\b(?:when|where|what\s+time)(?:'s|\s+(?:is|was|are|were|did|do|does|will))\s+"
        # "When's the barbecue thing?": a "thing" asked the time of is an event; so is a
        # weekend or a deadline ("when is the lake weekend?", "when's the grant deadline?").
        rf"(?:[\w']+\s+){{0,3}}?(?:{_EVENT_NOUNS}|thing|weekend|deadline)\b"
        # "What are the dates of the lake weekend?", "what's the time for the recital?"
        r"|\bwhat(?:'s|\s+(?:is|are|were|was))\s+the\s+(?:dates?|days?|times?)\s+(?:of|for)\b"
        # "Which flight am I on now?", "what train are we on?": the booking the user holds.
        rf"|\b(?:which|what)\s+(?:flight|train|bus|ferry|shift|table|slot)\s+"
        r"(?:am\s+i|are\s+we|is\s+\w+)\s+(?:\w+\s+)?(?:on|in|taking|catching|booked)\b"
        # "grant deadline?", "the essay's due date?": a deadline asked as a fragment.
        r"|^[^?]{0,40}\b(?:deadline|due\s+date)\s*\?*\s*$",
    ),
    _pattern(
        Intent.PLAN_RECALL,
        "still_on",
        r"\bare\s+we\s+(?:still\s+)?(?:on|meeting|going|doing|having|seeing)\b"
        r"|\b(?:is|are)\s+(?:[\w']+\s+){0,6}?still\s+(?:on|happening|going\s+ahead)\b"
        # "quiz night thursday still on?", "tourney still on the 17th?": the verb left out.
        r"|\bstill\s+(?:on|happening|going\s+ahead)\s*(?:for\s+)?"
        rf"(?:$|\?|(?:this\s+|next\s+)?(?:{_PLAN_DAYS})\b|the\s+\d{{1,2}}(?:st|nd|rd|th)?\b)"
        # "Is the quiz on tonight?", "is dinner on for friday?": whether it goes ahead then
        # (not "is the freeze on Friday?", which asks which day it is on).
        r"|^\W*(?:is|are)\s+(?:the\s+|our\s+|my\s+)?(?:[\w']+\s+){1,3}?on\s+"
        rf"(?:tonight|today|tomorrow|this\s+(?:evening|afternoon|morning)"
        rf"|for\s+(?:this\s+|next\s+)?(?:{_PLAN_DAYS_AHEAD}|the\s+\d{{1,2}}(?:st|nd|rd|th)))\b"
        # "Is Ana still landing Friday night?", "is Ben still lending the van on Sunday?": a
        # plan of someone's still going ahead on a day or as an event.
        # "Now that the move is on Sunday, is Bo still lending the van?": the day said first.
        rf"|^(?=.*\b(?:{_EVENT_NOUNS}|{_PLAN_DAYS})\b).*"
        r"\b(?:is|are)\s+(?:[\w']+\s+){0,3}?still\s+\w+ing\b"
        # "the launch is still the 6th?", "Ana's move still saturday right?", "dinner still
        # for friday?": a day or a date said right after "still", the verb left out.
        r"|\bstill\s+(?:on\s+)?(?:for\s+|at\s+)?(?:this\s+|next\s+|the\s+)?"
        rf"(?:{_PLAN_DAYS}|\d{{1,2}}(?:st|nd|rd|th))\b"
        # "Am I having coffee with Ravi tomorrow?": the user's own part in a plan.
        # "Am I working the weekend of the 17th?", "am I climbing with Bo this week?"
        r"|\bam\s+i\s+(?:still\s+)?\w+ing\b"
        rf"(?=.*\b(?:{_EVENT_NOUNS}|{_PLAN_DAYS}|week|the\s+\d{{1,2}}(?:st|nd|rd|th)"
        rf"|(?:{_SHORT_DAYS})\s+\d{{1,2}}|{_PLAN_DATE})\b)"
        # "trung thu dinner is sat right?", "the picnic's on the 12th?": a statement of when an
        # event is, asked with a question mark.
        r"|^\W*(?:the\s+|our\s+|my\s+)?(?!(?:i|you|we|it|he|she|they|that|this|there|today)\b)"
        r"(?:[\w'-]+\s+){0,4}?[\w'-]+(?:'s|\s+(?:is|are))\s+(?:still\s+)?(?:on\s+|at\s+|for\s+)?"
        rf"(?:this\s+|next\s+|the\s+)?(?:(?:(?:{_PLAN_DAYS}|{_SHORT_DAYS}),?\s+)?(?:{_PLAN_DATE})"
        rf"|{_PLAN_DAYS}|{_SHORT_DAYS}|\d{{1,2}}(?:st|nd|rd|th)|\d{{1,2}}(?::\d{{2}})?\s*(?:am|pm))"
        r"(?:,?\s+(?:right|yeah|correct|again|yes|no))?\s*\?+\s*$",
    ),
    _pattern(
        Intent.PLAN_RECALL,
        "who_is_coming",
        r"\bwho\s+(?:said\s+(?:yes|no)|(?:is|was|'s)\s+(?:coming|going|in|joining|out)"
        r"|(?:can|could|can't|couldn't)\s+(?:make\s+it|come)|confirmed|declined|accepted"
        r"|(?:signed|showed)\s+up|(?:dropped|pulled)\s+out|rsvp'?d)\b"
        rf"(?=.*\b(?:{_EVENT_NOUNS}|{_PLAN_DAYS})\b)",
    ),
    _pattern(
        Intent.PLAN_RECALL,
        "when_do_we_meet",
        r"\b(?:when|where|what\s+time)\s+(?:are|were|did|do|should|will)\s+we\s+(?:meet|meeting"
        r"|going|supposed|say|said|agree|decide)\b",
    ),
    _pattern(
        Intent.PLAN_RECALL,
        "status_changed",
        r"\bdid\s+(?:we|they|you)\s+(?:ever\s+)?(?:book|confirm|cancel|plan|arrange|reschedule"
        r"|move)\b"
        # "Did Tomas book a table?": someone acting on an event or a booking.
        r"|\bdid\s+(?:[\w']+\s+){1,2}?(?:ever\s+)?(?:book|confirm|cancel|reschedule|postpone"
        r"|move)\b"
        rf"(?=.*\b(?:{_EVENT_NOUNS}|{_PLAN_DAYS}|table|tickets?)\b)"
        r"|\bdid\s+(?:we|they|you)\s+(?:ever\s+)?(?:decide|agree|settle)\b"
        rf"(?=.*\b(?:{_EVENT_NOUNS}|{_PLAN_DAYS})\b)"
        # "Have we settled on a date for the reunion?", "did they pick a day yet?", "has Bo
        # fixed the time?": whether a date was agreed.
        r"|\b(?:did|have|has)\s+(?:we|they|you|[\w'-]+)\s+(?:ever\s+|already\s+|finally\s+"
        r"|actually\s+)?(?:decided?|agreed?|settled?|pick(?:ed)?|chosen|chose|choose|fixed|fix|set"
        r"|landed|land|locked\s+in|lock\s+in)\s+(?:on\s+|in\s+)?(?:a|the|any)\s+"
        r"(?:new\s+)?(?:date|day|time|venue|place)s?\b"
        r"|\b(?:was|is|were|got|get|been)\s+(?:[\w']+\s+){0,8}?(?:cancell?ed|rescheduled|postponed"
        r"|called\s+off|confirmed|booked|moved|locked\s+in|set\s+in\s+stone|finali[sz]ed)\b",
    ),
    _pattern(
        Intent.PLAN_RECALL,
        "when_does_it_happen",
        # "What time does Ana land tonight?", "when is the plumber coming?", "when are they
        # getting in?", "what time am I getting picked up?": when something is to happen.
        r"\bwhat\s+time\s+(?:is|are|am|does|do|will|should|'s)\b(?!\s+it\b)"
        # "When am I getting sushi with Mia?", "when are we seeing Kai?"
        r"|\bwhen\s+(?:am\s+i|are\s+we)\s+(?:still\s+)?(?:getting|having|seeing|meeting|going"
        r"|grabbing|doing)\b"
        r"|\bwhen(?:'s|\s+(?:is|are|am|does|do|will|should|'s))\s+(?:[\w']+\s+){0,4}?"
        r"(?:coming|come|arriving|arrive|landing|land|getting\s+in|get\s+in|leaving|leave"
        r"|starting|start|due|picking|picked|dropping|happening|showing\s+up|flying|fly"
        r"|visiting|moving|heading|returning|get\s+(?:here|there|back)|be\s+(?:here|there|back)"
        r"|getting\s+(?:here|there|back)|(?:have|has|need|needs)\s+to\s+be\s+(?:in|done|ready"
        r"|submitted|sent|handed\s+in|finished)|supposed\s+to\s+be)\b"
        # "Ana lands tonight at what time?", "dinner friday, what time?", "the pickup is on
        # which day?": the time or the day asked at the end, after what it is of.
        r"|\b(?:at\s+)?what\s+time(?:\s+(?:again|exactly))?(?:\s+and\s+where)?\W*$"
        r"|\bwhere\s+and\s+(?:at\s+)?what\s+time\W*$"
        # "Is padel happening tonight?", "squash on tomorrow?": whether it goes ahead then.
        r"|\b(?:is|are)\s+(?:[\w']+\s+){1,3}?(?:happening|going\s+ahead)\s+(?:on\s+)?"
        rf"(?:this\s+|next\s+)?(?:{_PLAN_DAYS_AHEAD}|today)\b"
        r"|^\W*(?:the\s+|our\s+|my\s+)?(?:[\w'-]+\s+){1,3}?on\s+(?:tonight|today|tomorrow)\W*$"
        r"|\b(?:on\s+)?(?:what|which)\s+(?:day|date)(?:\s+(?:again|exactly))?\W*$"
        # "Where's Friday's dinner?", "what time is tomorrow's call?", "when is Sunday's
        # thing?": a day's possessive names an event.
        rf"|\b(?:when|where|what\s+time)(?:'s|\s+(?:is|are|was|were))\s+(?:the\s+)?"
        rf"(?:{_PLAN_DAYS}|tonight)'s?\s"
        # "When is Ana's move now?", "when's the deadline?": a short question for the time of
        # one thing.
        r"|^\W*when(?:'s|\s+(?:is|are))\s+(?:[\w']+\s+){0,3}?[\w']+"
        r"(?:\s+(?:now|again|then|happening))?\s*\?*\s*$"
        # "What day is the picnic?", "the retreat is which dates again?": the day of one thing.
        r"|\b(?:what|which)\s+(?:days?|dates?)\s+(?:is|are|'s)\b(?!\s+(?:it|today)\b)"
        r"|\b(?:is|are)\s+(?:what|which)\s+(?:days?|dates?)\b"
        # "easter lunch is when again?", "the pickup is at what time?": the question's last
        # words ask for the time of what it named first.
        r"|\b(?:is|are|'s)\s+(?:when|(?:at\s+)?what\s+time)(?:\s+(?:again|now|exactly))?\W*$"
        # "Where's the tasting tomorrow?": where something is on a day.
        rf"|\bwhere(?:'s|\s+is|\s+are)\s+(?:[\w']+\s+){{1,4}}?(?:on\s+)?"
        rf"(?:{_PLAN_DAYS}|the\s+\d{{1,2}}(?:st|nd|rd|th))\b",
    ),
    _pattern(
        Intent.PLAN_RECALL,
        "whats_on",
        # "What have I got on this weekend?", "what am I doing tomorrow?", "any plans tonight?"
        r"\bwhat\s+(?:have|'ve|do)\s+(?:i|we)\s+(?:got|have)\s+on\b"
        # "What's on for me this weekend?", "anything planned for tomorrow?", "what have we got
        # lined up next week?", "is anything booked for Saturday?"
        rf"|\bwhat(?:'s|\s+is)\s+on\s+for\s+(?:me|us)\b"
        r"|\b(?:what(?:'s|\s+is)?|anything|something)\s+(?:[\w']+\s+){0,3}?(?:planned|lined\s+up"
        r"|scheduled|booked|on\s+the\s+calendar|in\s+the\s+diary|coming\s+up)\s+(?:for\s+)?"
        r"(?:me\s+|us\s+)?(?:for\s+)?(?:the\s+)?"
        rf"(?:this|next|{_PLAN_DAYS_AHEAD}|week|weekend)\b"
        rf"|\bwhat(?:'s|\s+is)\s+on\s+(?:for\s+)?(?:{_PLAN_DAYS}|this|next|{_PLAN_DATE}"
        rf"|(?:{_SHORT_DAYS})\s+\d{{1,2}}|(?:{_SHORT_DAYS})\W*$)\b"
        rf"|\bwhat(?:'s|\s+is)\s+happening\s+(?:on\s+|this\s+|next\s+)?(?:{_PLAN_DAYS_AHEAD})\b"
        rf"|\bwhat\s+(?:am\s+i|are\s+we)\s+doing\s+(?:on\s+|this\s+|next\s+)?(?:{_PLAN_DAYS})\b"
        r"|\bany\s+plans\b|\bwhat\s+plans\s+(?:do|have|did|are|'ve)\b",
    ),
    _pattern(
        Intent.PLAN_RECALL,
        "bring_or_drive",
        # "What am I supposed to bring to the party?", "who's driving?", "who picks us up?"
        r"\b(?:supposed|meant|asked)\s+to\s+bring\b|\bwhat\s+(?:should|do|can|shall)\s+(?:i|we)"
        r"\s+bring\b|\bwho(?:'s|\s+is)\s+(?:driving|picking)\b|\bwho\s+(?:drives|picks)\b",
    ),
    # A past-tense "who" question asks who someone was ("who signed me up?"); a present one
    # ("who owns what for the launch?") asks about a conversation.
    _pattern(
        Intent.IDENTITY_LOOKUP,
        "who_did",
        r"^\W*who\s+(?:was|were|did|had|\w+ed)\b(?!\s+(?:i|we)\b)",
    ),
)

PLAN_STATUS_PATTERNS: tuple[tuple[PlanStatus, re.Pattern[str]], ...] = (
    (PlanStatus.PROPOSED, re.compile(r"\b(?:propos(?:e|ed|al)|suggest(?:ed|ion)?|floated)\b")),
    (
        PlanStatus.CONFIRMED,
        re.compile(r"\b(?:confirm(?:ed)?|locked\s+in|finali[sz]ed|booked)\b"),
    ),
    (
        PlanStatus.CHANGED,
        re.compile(
            r"\b(?:chang(?:e|ed)|mov(?:e|ed)|reschedul(?:e|ed)|postpon(?:e|ed)|pushed\s+back|delayed"
            r"|shifted)\b"
        ),
    ),
    (
        PlanStatus.CANCELLED,
        re.compile(r"\b(?:cancel(?:l?ed|lation)?|called\s+off|scrapped)\b"),
    ),
)

_RANKING_LIMIT = re.compile(
    rf"\btop\s+(?P<a>{_RANKING_NUMBER})\b"
    rf"|\b(?P<b>{_RANKING_NUMBER})\s+(?:closest|best|most|top|people|friends|contacts)\b"
)
_RANKING_SINGLE = re.compile(r"\b(?:closest|best)\s+friend\b(?!s)")
# How much, not how close: "who do I talk to / text / message the most".
_MOST_MESSAGES = re.compile(
    r"\b(?:talk|talked|text|texted|message|messaged|chat|chatted|speak|spoke|spoken|write"
    r"|written|talks|texts|messages|writes|chats|post|posts|posted)\b.*\bmost\b"
    r"|\bmost\s+(?:active|frequent)\b"
    # Ranked by how much they write: "by how much they post", "by how often they text".
    rf"|{_BY_HOW_MUCH_THEY_WRITE}"
)
_CLOSEST = re.compile(r"\b(?:closest|best|close)\b")
_NEGLECTED = re.compile(
    r"\bneglect|\bignor|\bhaven't\b|\bhave\s+i\s+not\b|\btouch\b|\bin\s+(?:a\s+while|ages)\b"
)

_QUOTED = re.compile(r'"(?P<a>[^"]+)"|(?<![\w])\'(?P<b>[^\']+)\'(?![\w])')
_TOKEN = re.compile(r"[^\W_]+(?:['-][^\W_]+)*")
_HANDLE = re.compile(r"(?<![\w@])@(?P<handle>[a-z0-9_][a-z0-9_.]*[a-z0-9_]|[a-z0-9_])")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_PHONE = re.compile(r"(?<![\w+])\+?\d[\d\s().-]{6,}\d(?!\w)")
_SENTENCE_END = re.compile(r"[.?!]\s*$")

_CITY_ALTERNATION = "|".join(
    re.escape(form).replace(r"\ ", r"\s+") for form in sorted(CITY_FORMS, key=len, reverse=True)
)
_LOCATION = re.compile(
    r"(?<![\w'])(?P<prep>in|from|at|to|near|around|visiting|visited|through|into|of)\s+"
    rf"(?:the\s+)?(?P<city>{_CITY_ALTERNATION})(?!\w|'s)"
)
_PRESENT_TENSE = re.compile(
    r"\b(?:lives?|living|is|are|'s|'re|based|currently|now|staying|moved|moving|works?|working)\b"
)
_DESCRIPTOR = re.compile(
    r"(?<![\w'-])(?:"
    + "|".join(
        re.escape(form).replace(r"\ ", r"\s+")
        for form in sorted(DESCRIPTOR_FORMS, key=len, reverse=True)
    )
    + r")(?![\w-])"
)
_NATIONALITY_CANONICAL = frozenset(NATIONALITIES)
# A nationality next to one of these describes a thing or a language, not a person.
_THING_NOUNS = word_set(
    """
    food restaurant restaurants place places bar bars cuisine wine wines beer class classes lesson
    lessons course film films movie movies music song songs book books visa embassy passport
    company market style dish dishes coffee bakery cafe shop store consulate citizenship
    language lessons keyboard translation appointment office bill fees visit party group
    """
)
_LANGUAGE_VERBS = word_set(
    "in into speak speaks speaking spoke learn learning learned learnt translate translated"
)
_PRONOUN_I = frozenset({"i", "i'm", "i've", "i'd", "i'll"})
# Titles said before a surname or an initial ("dr adeyemi", "Dr O", "Sra. Lima"), in the
# languages people write in; a title joins the mention without having to be in the saved name.
TITLES = frozenset(
    {"dr", "dra", "doctor", "doc", "mr", "mrs", "ms", "mx", "prof", "professor", "profa", "sr",
     "sra", "srta", "herr", "frau", "mme", "mlle", "monsieur", "madame", "dott", "dottssa",
     "sig", "sigra", "pan", "pani", "fr", "rev"}
)  # fmt: skip
# Single letters that are words, never a surname's initial ("Noor I swim with").
_NOT_INITIALS = frozenset({"i"})
_POSSESSIVE_BEFORE = re.compile(r"\b(?:my|our|his|her|their)\s+$")
_OWN_BEFORE = re.compile(r"\b(?:my|our)\s+$")
# Accented spellings a folded letter stands for, so "joao" finds "João" in the database.
_ACCENTED_FIXED = {
    "a": "aáàâãäå",
    "e": "eéèêë",
    "i": "iíìîï",
    "o": "oóòôõöø",
    "u": "uúùûü",
    "c": "cç",
    "n": "nñ",
    "y": "yýÿ",
    "s": "sšś",
    "z": "zžźż",
    "l": "lł",
}


def _marked_forms() -> dict[str, str]:
    """Each letter with every precomposed Latin letter that folds to it (Vietnamese "ẹ", "ấ",
    "ữ" as well as "é"), lower and upper case folded by the case-insensitive match."""
    forms = {letter: set(chars) for letter, chars in _ACCENTED_FIXED.items()}
    for code in [*range(0xC0, 0x250), *range(0x1E00, 0x1F00)]:
        char = chr(code)
        base = unicodedata.normalize("NFD", char)[0].lower()
        if base != char.lower() and "a" <= base <= "z" and char.islower():
            forms.setdefault(base, {base}).add(char)
    return {letter: "".join(sorted(chars)) for letter, chars in forms.items()}


_ACCENTED = _marked_forms()


@dataclass(frozen=True)
class _Token:
    start: int
    end: int
    folded: str
    original: str
    sentence_initial: bool

    @property
    def key(self) -> str:
        """The folded token without a possessive ending ("ana's" -> "ana")."""
        return self.folded[:-2] if self.folded.endswith("'s") else self.folded

    @property
    def surface(self) -> str:
        return self.original[:-2] if self.folded.endswith("'s") else self.original


@dataclass(frozen=True)
class _PersonRow:
    person_id: int
    name_words: frozenset[str]
    exact_values: frozenset[str]
    direct_chat_id: int | None
    # The first word of each name the contact is saved under ("ana" of "Ana Lima 🌿").
    first_words: frozenset[str] = frozenset()
    # The person and everyone the user merged with them (one human across platforms).
    merge_group: frozenset[int] = frozenset()
    # An automated account ("Reminder Bot", a handle ending in "bot"): see ``_is_bot``.
    is_bot: bool = False


@dataclass(frozen=True)
class _Resolved:
    """A mention resolved to people: a run of name tokens or an identity (handle, email,
    phone), with its character span in the question."""

    start: int
    end: int
    name: str
    person_ids: tuple[int, ...]
    direct_chat_id: int | None


@dataclass(frozen=True)
class _IdentityMention:
    start: int
    end: int
    value: str
    surface: str


# Texting shorthand, spelled out before the intent is read: "r we", "u", "w Bo", "w/ Bo",
# "wheres", "whens", "whats", "havent" (typed without the apostrophe), "ppl".
_SHORTHAND: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bppl\b"), "people"),
    (re.compile(r"(?<![\w&'./-])r(?![\w&'./-])"), "are"),
    (re.compile(r"(?<![\w&'./-])u(?![\w&'./-])"), "you"),
    (re.compile(r"(?<![\w&'./-])w/?(?=\s)"), "with"),
    (re.compile(r"\b(where|when|what|who)s\b"), r"\1's"),
    # Negations typed without the apostrophe: "havent", "didnt", "dont", "cant", "wont".
    (
        re.compile(r"\b(have|has|had|did|do|does|is|was|are|were|could|should|would)nt\b"),
        r"\1n't",
    ),
    (re.compile(r"\bcant\b"), "can't"),
    (re.compile(r"\bwont\b"), "won't"),
)


def spelled_out(folded: str) -> str:
    """``folded`` with texting shorthand written in full (for reading the intent only: the
    lengths change, so no span of it points into the question)."""
    for pattern, full in _SHORTHAND:
        folded = pattern.sub(full, folded)
    return folded


def classify_intent(masked_folded: str) -> tuple[Intent, IntentPattern | None]:
    """The intent of a folded question and the pattern that decided it (``None``: default)."""
    masked_folded = spelled_out(masked_folded)
    for pattern in INTENT_PATTERNS:
        if pattern.regex.search(masked_folded):
            return pattern.intent, pattern
    return Intent.CONVERSATION_QA, None


def _quoted_spans(folded: str) -> list[tuple[int, int]]:
    """Spans of quoted phrases including the quotes; an apostrophe inside a word is not a quote."""
    return [match.span() for match in _QUOTED.finditer(folded)]


# A quoted phrase this short may be a name as the user's history shows it.
_QUOTED_NAME_MAX_WORDS = 4


def _quoted_names(*, user: User, text: str, quoted: Sequence[tuple[int, int]]) -> set[int]:
    """The quoted phrases (indexes into ``quoted``) that are a name exactly as the user's
    history shows it, decoration aside: a saved contact name, a direct chat's title or the
    name a sender's messages came under ('who is "Bo Support"?', "what did 'Lake Isle'
    send?"). Those name people; any other quote is text to find. A few queries per quoted
    phrase (``memory.sameperson.people_named``), none without a quote."""
    from memory.sameperson import people_named

    names = set()
    for index, (start, end) in enumerate(quoted):
        inner = text[start + 1 : end - 1].strip()
        if not inner or len(inner.split()) > _QUOTED_NAME_MAX_WORDS:
            continue
        if people_named(user=user, name=inner).person_ids:
            names.add(index)
    return names


def _mask(text: str, spans: Sequence[tuple[int, int]]) -> str:
    chars = list(text)
    for start, end in spans:
        for index in range(start, end):
            chars[index] = " "
    return "".join(chars)


def _inside(position: int, spans: Sequence[tuple[int, int]]) -> bool:
    return any(start <= position < end for start, end in spans)


def _tokens(text: str, folded: str) -> list[_Token]:
    tokens: list[_Token] = []
    for match in _TOKEN.finditer(folded):
        start, end = match.span()
        initial = not tokens or bool(_SENTENCE_END.search(folded[:start]))
        tokens.append(_Token(start, end, match.group(), text[start:end], initial))
    return tokens


def _is_case_informative(tokens: Sequence[_Token]) -> bool:
    """Whether the asker uses capitals: a capital other than a sentence start, "I" or an
    acronym written in capitals ("did bo return my AMH?" still writes names in lower case)."""
    return any(
        any(char.isupper() for char in token.original)
        and not (len(token.original) >= 2 and token.original.isupper())
        for token in tokens
        if not token.sentence_initial and token.folded not in _PRONOUN_I
    )


def _name_candidates(
    tokens: Sequence[_Token], excluded: Sequence[tuple[int, int]], informative: bool
) -> tuple[list[int], set[int]]:
    """Indexes of tokens that may be (part of) a person's name, and of those the lower-case
    words of a question that capitalises names: such a word names someone only when it is a
    contact's first name exactly ("ask ryan" next to "Bo"), never by a short form."""
    indexes = []
    strict = set()
    for index, token in enumerate(tokens):
        if _inside(token.start, excluded) or token.key.isdigit() or len(token.key) < 2:
            continue
        # A word written with marks its folded form drops is not the common word that form
        # spells: Vietnamese "mẹ" (mother) is not English "me".
        is_marked = token.original.casefold() != token.key
        is_common = (token.key in STOP_WORDS or token.key in ROUTING_WORDS) and not is_marked
        if is_common and (not informative or token.sentence_initial):
            continue
        if informative and token.key in _PRONOUN_I:
            continue
        if informative and not token.original[:1].isupper():
            if is_common:
                continue
            strict.add(index)
        indexes.append(index)
    indexes = indexes[:MAX_NAME_CANDIDATES]
    return indexes, strict & set(indexes)


def _identity_mentions(
    text: str, masked: str, excluded: Sequence[tuple[int, int]]
) -> list[_IdentityMention]:
    """Emails, @handles and phone numbers, normalised like stored identity values."""
    mentions: list[_IdentityMention] = []

    def add(start: int, end: int, value: str) -> None:
        overlaps = any(start < item.end and item.start < end for item in mentions)
        if value and not overlaps and not _inside(start, excluded):
            mentions.append(_IdentityMention(start, end, value, text[start:end]))

    for match in _EMAIL.finditer(masked):
        add(match.start(), match.end(), normalise_email(match.group()))
    for match in _HANDLE.finditer(masked):
        add(match.start(), match.end(), normalise_handle(match.group("handle")))
    for match in _PHONE.finditer(masked):
        if normalise_phone(match.group()).lstrip("+"):
            add(match.start(), match.end(), normalise_phone(match.group()))
    return sorted(mentions, key=lambda item: item.start)


# A saved name longer than this is a sentence someone typed into the name field; only its
# first words can be what the person is called.
_NAME_WORDS_READ = 5


def _words(value: str) -> set[str]:
    words = [match.group() for match in _TOKEN.finditer(fold_text(value))]
    return set(words[:_NAME_WORDS_READ])


# Words that say a contact is an automated account, in the languages the product reads.
BOT_WORDS = frozenset({"bot", "bots", "robot", "robo", "roboter", "chatbot"})
# Handles of automated accounts end in "bot" (Telegram requires it: "@quiz_helper_bot",
# "@QuizBot"); a person's handle may end in the letters ("@talbot"), so a separator or a
# capital marks the word.
_BOT_HANDLE = re.compile(r"[_.\-][Bb][Oo][Tt]$|[a-z0-9]Bot$|^@?bot[_.\-]")


def _is_bot(name_words: Iterable[str], identity_values: Iterable[str]) -> bool:
    """Whether a contact is an automated account: a word of its name says so ("Reminder
    Bot"), or a handle ends in "bot" ("@gn_helper_bot"; not a name that happens to, "Abbot"
    is a name word, not a handle)."""
    if set(name_words) & BOT_WORDS:
        return True
    return any(
        " " not in value and _BOT_HANDLE.search(value.lstrip("@")) is not None
        for value in identity_values
        if value
    )


def _first_word(name: str) -> str:
    """The first word of a saved name, after any title ("ana" of "Dr. Ana Lima")."""
    words = [match.group() for match in _TOKEN.finditer(fold_text(name))]
    while words and words[0] in TITLES:
        words.pop(0)
    return words[0] if words else ""


def _accent_insensitive(key: str) -> str:
    """A PostgreSQL regular expression matching ``key`` with or without accents."""
    return "".join(f"[{_ACCENTED[char]}]" if char in _ACCENTED else re.escape(char) for char in key)


def _word_start_pattern(keys: Sequence[str]) -> str:
    """One case-insensitive PostgreSQL pattern: any of ``keys`` at the start of a word, or a
    whole word that is a short form of one ("Tina" for "Martina"; see ``nicknamed``)."""
    short_forms = {
        key[:length] for key in keys if key.isalpha() for length in range(_MIN_SHORT_FORM, len(key))
    }
    alternatives = [_accent_insensitive(key) for key in keys]
    alternatives += [_accent_insensitive(form) + r"\M" for form in sorted(short_forms)]
    return r"\m(?:" + "|".join(alternatives) + ")"


# The user's people a question's words may name, with what ``_resolve_names`` needs of each:
# identity values, platform display names, the person their merge keeps (``merge_root``, the
# person itself when unmerged), that root's merged members and the most recent direct chat of
# the person or of the root. One statement, written by hand: building the equivalent ORM query
# (five correlated subqueries) cost more than running it.
_PEOPLE_SQL = """
WITH matched AS (
    SELECT p.id, p.display_name,
           COALESCE(
               (SELECT pm.kept_person_id FROM {merge} pm
                WHERE pm.split_at IS NULL AND pm.user_id = %(user_id)s
                  AND pm.merged_person_id = p.id
                LIMIT 1),
               p.id
           ) AS merge_root
    FROM {person} p
    WHERE p.user_id = %(user_id)s
      AND (p.id IN (SELECT i.person_id FROM {identity} i
                    WHERE i.user_id = %(user_id)s
                      AND (i.value = ANY(%(exact)s){identity_name}))
           {display_name})
)
SELECT m.id, m.display_name,
       ARRAY(SELECT i.value FROM {identity} i
             WHERE i.person_id = m.id AND i.user_id = %(user_id)s),
       ARRAY(SELECT i.value FROM {identity} i
             WHERE i.person_id = m.id AND i.user_id = %(user_id)s AND i.kind = %(name_kind)s),
       (SELECT c.id FROM {chat} c
        JOIN {participant} cp ON cp.chat_id = c.id
        WHERE NOT c.is_excluded_from_ai AND c.kind = %(direct)s AND c.user_id = %(user_id)s
          AND (cp.person_id = m.id OR cp.person_id = m.merge_root)
        ORDER BY c.last_message_at DESC, c.id DESC
        LIMIT 1),
       m.merge_root,
       ARRAY(SELECT pm.merged_person_id FROM {merge} pm
             WHERE pm.split_at IS NULL AND pm.user_id = %(user_id)s
               AND pm.kept_person_id = m.merge_root)
FROM matched m
ORDER BY m.id
"""


def _people_rows(*, user: User, name_keys: Sequence[str], identities: set[str]) -> list[_PersonRow]:
    """The user's people whose name or an identity may match; one query, scoped by user.

    The database narrows with one word-start regular expression over display names and
    platform display names, and exact matches over identity values (handles, emails, phone
    numbers, a handle typed without its "@"); ``_resolve_names`` then requires whole words.
    """
    if not name_keys and not identities:
        return []
    params: dict[str, Any] = {
        "user_id": user.pk,
        "exact": sorted(identities | set(name_keys)),
        "name_kind": IdentityKind.NAME.value,
        "direct": ChatKind.DIRECT.value,
    }
    identity_name = display_name = ""
    if name_keys:
        params["pattern"] = _word_start_pattern(name_keys)
        identity_name = " OR (i.kind = %(name_kind)s AND i.value::text ~* %(pattern)s)"
        display_name = "OR p.display_name::text ~* %(pattern)s"
    sql = _PEOPLE_SQL.format(
        person=Person._meta.db_table,
        identity=PersonIdentity._meta.db_table,
        merge=PersonMerge._meta.db_table,
        chat=Chat._meta.db_table,
        participant=ChatParticipant._meta.db_table,
        identity_name=identity_name,
        display_name=display_name,
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    people = []
    for (
        person_id,
        display_name_value,
        identity_values,
        platform_names,
        direct_chat_id,
        merge_root,
        merge_members,
    ) in rows:
        names = [display_name_value, *platform_names]
        name_words = set().union(*(_words(name) for name in names))
        people.append(
            _PersonRow(
                person_id=person_id,
                name_words=frozenset(name_words),
                first_words=frozenset(_first_word(name) for name in names) - {""},
                exact_values=frozenset(fold_text(value) for value in identity_values),
                direct_chat_id=direct_chat_id,
                merge_group=frozenset({person_id, merge_root, *merge_members}),
                is_bot=_is_bot(name_words, identity_values),
            )
        )
    return people


def _resolve_names(
    tokens: Sequence[_Token],
    candidates: Sequence[int],
    rows: Sequence[_PersonRow],
    text: str,
    strict: frozenset[int] | set[int] = frozenset(),
) -> list[_Resolved]:
    """Longest runs of adjacent candidate tokens that all name the same person(s), with a
    title before them ("dr adeyemi") and initials after them ("alex k", "Dr O")."""
    candidate_set = set(candidates)
    bots = {row.person_id: row.is_bot for row in rows}

    def exact(token: _Token) -> set[int]:
        return {
            row.person_id
            for row in rows
            if token.key in row.name_words or token.key in row.exact_values
        }

    def matching(index: int) -> set[int]:
        token = tokens[index]
        if index in strict:
            # Someone the user talks to one-on-one, not a group's bot ("Game Night Bot").
            return {
                row.person_id
                for row in rows
                if token.key in row.first_words and row.direct_chat_id is not None
            }
        return exact(token) or _loosely_named(token, rows)

    def nicknamed(token: _Token) -> set[int]:
        """Contacts saved under nothing but a short form of a name another contact holds in
        full: one human saved twice ("Martina Russo" on one app, "Tina 🌻" on another)."""
        return {
            row.person_id
            for row in rows
            if len(row.name_words) == 1
            and _shortens(next(iter(row.name_words)), token.key)
            and len(next(iter(row.name_words))) >= _MIN_SHORT_FORM
        }

    def full_form_of_nickname(token: _Token) -> set[int]:
        """The one contact saved under nothing but a short form of the token, someone the user
        talks to one-on-one ("dylan" for "Dyl 🦘"): a name written in full that no contact
        holds. Not an everyday word ("annual" is not "Ann") nor a form much longer than the
        short one ("marketing" is not "Mar")."""
        if token.key in _common_words() or not token.key.isalpha():
            return set()
        nicknames = nicknamed(token)
        found = {
            row.person_id
            for row in rows
            if row.person_id in nicknames
            and row.direct_chat_id is not None
            and len(token.key) - len(next(iter(row.name_words))) <= _NICKNAME_EXTRA_LETTERS
        }
        return found if len(found) == 1 else set()

    def shortened(token: _Token, people: set[int]) -> set[int]:
        """Of ``people``, those saved under an initial or a short form of the token ("Sam W"
        or "Lee Harw" for "Lee Harwood"): the rest of a full name the contact list cuts."""
        return {
            row.person_id
            for row in rows
            if row.person_id in people
            and any(_shortens(word, token.key) for word in row.name_words)
        }

    def adjacent(index: int) -> bool:
        """Whether token ``index + 1`` follows it as the next word of one name."""
        if index + 1 >= len(tokens) or tokens[index].folded.endswith("'s"):
            return False
        gap = text[tokens[index].end : tokens[index + 1].start]
        return gap.strip() == "" or (gap.strip() == "." and tokens[index].key in TITLES)

    def continues(index: int) -> bool:
        return index in candidate_set or _is_initial(tokens[index])

    resolved: list[_Resolved] = []
    index = 0
    while index < len(tokens):
        if index not in candidate_set:
            index += 1
            continue
        first = index
        titled = tokens[index].key in TITLES and adjacent(index) and continues(index + 1)
        if titled:
            index += 1
            people = _titled(tokens[first].key, tokens[index], rows, exact(tokens[index]))
        elif _is_initial(tokens[index]):
            people = set()
        else:
            people = matching(index) or full_form_of_nickname(tokens[index])
        if not people:
            index = first + 1
            continue
        if not titled:
            people |= nicknamed(tokens[index])
        used = {tokens[index].key}
        last = index
        while adjacent(last) and continues(last + 1):
            following = tokens[last + 1]
            narrowed = (
                people & exact(following)
                or shortened(following, people)
                or _initialled(following, people, rows, used)
            )
            if not narrowed:
                break
            people = narrowed
            used.add(following.key)
            last += 1
        if not used & BOT_WORDS:
            # "when is quiz night" does not ask about the group's "Game Night Bot": an
            # automated account is named only with the word that says it is one.
            people = {pid for pid in people if not bots.get(pid, False)}
            if not people:
                index = first + 1
                continue
        name = text[tokens[first].start : tokens[last].start] + tokens[last].surface
        resolved.append(
            _Resolved(
                start=tokens[first].start,
                end=tokens[last].end,
                name=name,
                person_ids=_with_merged(rows, people),
                direct_chat_id=_direct_chat(rows, people),
            )
        )
        index = last + 1
    return resolved


def _is_initial(token: _Token) -> bool:
    """A lone letter that may be a surname's initial ("Ines V", "ines v"); "a" only when
    written as a capital."""
    if len(token.key) != 1 or not token.key.isalpha() or token.key in _NOT_INITIALS:
        return False
    return token.key != "a" or token.original == "A"


def _initialled(
    token: _Token, people: set[int], rows: Sequence[_PersonRow], used: set[str]
) -> set[int]:
    """Of ``people``, those with another name word (no title) starting with the initial."""
    if not _is_initial(token):
        return set()
    return {
        row.person_id
        for row in rows
        if row.person_id in people
        and any(
            word.startswith(token.key) and word not in used and word not in TITLES
            for word in row.name_words
        )
    }


def _titled(title: str, token: _Token, rows: Sequence[_PersonRow], named: set[int]) -> set[int]:
    """The contacts "<title> <surname or initial>" names: the word after the title matched
    as a whole name word, or as the initial of one; contacts saved with that title first."""
    if not named and _is_initial(token):
        named = _initialled(token, {row.person_id for row in rows}, rows, set())
    with_title = {
        row.person_id for row in rows if row.person_id in named and title in row.name_words
    }
    return with_title or named


def _loosely_named(token: _Token, rows: Sequence[_PersonRow]) -> set[int]:
    """Contacts a word names without being one of their name words: a possessive written
    without its apostrophe ("anas email" for "Ana Lima"). A bare prefix of a first name is
    no name ("Ana" is not "Anabela")."""
    key = token.key
    if len(key) <= _MIN_SHORT_FORM or not key.isalpha() or not key.endswith("s"):
        return set()
    return {row.person_id for row in rows if key[:-1] in row.first_words}


# A short form shorter than this is only an initial ("H" for "Harwood").
_MIN_SHORT_FORM = 3
# A name in full read as a contact's nickname has at most this many letters more ("dylan" for
# "Dyl", "samantha" for "Sam" is too far).
_NICKNAME_EXTRA_LETTERS = 4
# Everyday words, never read as the full form of a nickname.
_COMMON_FOR_NICKNAMES = 3000


@functools.cache
def _common_words() -> frozenset[str]:
    return common_words(_COMMON_FOR_NICKNAMES)


def _shortens(word: str, key: str) -> bool:
    """Whether a contact's name word is an initial or a short form of the question's word."""
    if len(word) >= len(key) or not key.startswith(word):
        return False
    return len(word) == 1 or len(word) >= _MIN_SHORT_FORM


def _called_names(
    *,
    user: User,
    tokens: Sequence[_Token],
    candidates: Sequence[int],
    resolved: Sequence[_Resolved],
) -> list[_Resolved]:
    """Name tokens no contact's name holds that the user calls one contact by ("Maya" for the
    sister saved as "Bubbles"; ``memory.callnames``)."""
    # A capitalised word, or any word of a short question ("who is maya?").
    is_short = len(tokens) <= SHORT_QUESTION_TOKENS
    loose = [
        tokens[index]
        for index in candidates
        if (is_short or tokens[index].original[:1].isupper())
        and not any(item.start <= tokens[index].start < item.end for item in resolved)
        and tokens[index].key not in KIN_FORMS
        and tokens[index].key not in DESCRIPTOR_FORMS
    ]
    if not loose:
        return []
    called = people_called_by(user=user, names=[token.key for token in loose])
    named = [token for token in loose if called.get(token.key)]
    direct = direct_chats_latest(
        user=user, people={token.key: called[token.key] for token in named}
    )
    found = []
    for token in named:
        found.append(
            _Resolved(
                start=token.start,
                end=token.end,
                name=token.surface,
                person_ids=called[token.key],
                direct_chat_id=direct[token.key],
            )
        )
    return found


def _narrowed(*, user: User, item: _Resolved, rows: Sequence[_PersonRow], masked: str) -> _Resolved:
    """A name two humans share, narrowed to one by the word said with it ("climbing Rosa",
    "Rosa from work"; ``retrieval.people_context``); the word joins the mention's span, so
    it is no keyword."""
    groups: dict[int, tuple[int, ...]] = {}
    for row in rows:
        if row.person_id in item.person_ids:
            key = min(row.merge_group)
            groups[key] = tuple(
                sorted(
                    set(groups.get(key, ()))
                    | (row.merge_group & set(item.person_ids))
                    | {row.person_id}
                )
            )
    if len(groups) < 2:
        return item
    for word, start, end in describing_words(masked, item.start, item.end):
        narrowed = narrow_people(user=user, groups=groups, word=word)
        if narrowed is not None:
            return replace(
                item,
                start=min(start, item.start),
                end=max(end, item.end),
                person_ids=narrowed,
                direct_chat_id=_direct_chat(rows, set(narrowed)),
            )
    return item


def _with_merged(rows: Sequence[_PersonRow], people: set[int]) -> tuple[int, ...]:
    """``people`` and everyone the user merged with them: a merged human is read on every
    platform by every consumer of the compiled query (search, plans, facts, metrics)."""
    ids = set(people)
    for row in rows:
        if row.person_id in people:
            ids |= row.merge_group
    return tuple(sorted(ids))


def _direct_chat(rows: Sequence[_PersonRow], people: set[int]) -> int | None:
    """The direct chat of a mention that resolves to one human: one person, or people the user
    merged into one."""
    matched = [row for row in rows if row.person_id in people]
    if not matched or any(row.merge_group != matched[0].merge_group for row in matched):
        return None
    return next((row.direct_chat_id for row in matched if row.direct_chat_id is not None), None)


@dataclass(frozen=True)
class _Descriptor:
    canonical: str
    start: int
    end: int


def _descriptors(masked: str, excluded: Sequence[tuple[int, int]]) -> list[_Descriptor]:
    found = []
    for match in _DESCRIPTOR.finditer(masked):
        if _inside(match.start(), excluded):
            continue
        canonical = DESCRIPTOR_FORMS[" ".join(match.group().split())]
        following = re.match(r"\s+([\w']+)", masked[match.end() :])
        preceding = re.search(r"([\w']+)\s+$", masked[: match.start()])
        if following and following.group(1) in _THING_NOUNS:
            continue
        if (
            canonical in _NATIONALITY_CANONICAL
            and preceding
            and preceding.group(1) in _LANGUAGE_VERBS
        ):
            continue
        found.append(_Descriptor(canonical, match.start(), match.end()))
    return found


def _name_keys(tokens: Sequence[_Token], candidates: Sequence[int]) -> list[str]:
    """The words the database narrows contacts by: the candidates, and an initial after a
    title ("Dr O": any contact with a name word starting with "o")."""
    keys = [tokens[index].key for index in candidates]
    for index in candidates:
        following = index + 1
        is_titled = tokens[index].key in TITLES and following < len(tokens)
        if is_titled and _is_initial(tokens[following]):
            keys.append(tokens[following].key)
    return keys


def _marked_relatives(
    *, user: User, tokens: Sequence[_Token], resolved: Sequence[_Resolved]
) -> list[_Resolved]:
    """A Vietnamese or Indonesian word for a relative said on its own ("nhắn mẹ …", "tanya
    ibu …", ``memory.kinship.MARKED_KIN_WORDS``, marks kept): the one person the user's own
    kinship facts know as that relative, when no saved name took the word. Before a name
    ("chú Tuấn", "Ibu Sari") it is a title, not a relative."""
    said: list[tuple[_Token, str]] = []
    for index, token in enumerate(tokens):
        relation = MARKED_KIN_WORDS.get(token.original.casefold())
        if relation is None or any(item.start <= token.start < item.end for item in resolved):
            continue
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        if following is not None and following.original[:1].isupper():
            continue
        said.append((token, relation))
    relatives = relatives_of_user(user=user, relations={relation for _, relation in said})
    found = []
    for token, relation in said:
        relative = relatives.get(relation)
        if relative is not None:
            found.append(
                _Resolved(
                    start=token.start,
                    end=token.end,
                    name=token.original,
                    person_ids=relative.person_ids,
                    direct_chat_id=relative.direct_chat_id,
                )
            )
    return found


def _people(
    *,
    user: User,
    text: str,
    masked: str,
    tokens: Sequence[_Token],
    excluded: Sequence[tuple[int, int]],
    name_excluded: Sequence[tuple[int, int]],
) -> tuple[list[PersonRef], list[_Resolved], list[_IdentityMention]]:
    """People the question names (by name or identity) or describes; also the resolved
    mentions and every identity mention, whose spans leave the keywords."""
    mentions = _identity_mentions(text, masked, excluded)
    mention_spans = [(item.start, item.end) for item in mentions]
    informative = _is_case_informative(tokens)
    candidates, strict = _name_candidates(tokens, [*name_excluded, *mention_spans], informative)
    rows = _people_rows(
        user=user,
        name_keys=_name_keys(tokens, candidates),
        identities={item.value for item in mentions},
    )
    resolved = _resolve_names(tokens, candidates, rows, text, strict)
    loose = [index for index in candidates if index not in strict]
    resolved += _called_names(user=user, tokens=tokens, candidates=loose, resolved=resolved)
    for mention in mentions:
        matched = {row.person_id for row in rows if mention.value in row.exact_values}
        if matched:
            resolved.append(
                _Resolved(
                    start=mention.start,
                    end=mention.end,
                    name=mention.surface,
                    person_ids=_with_merged(rows, matched),
                    direct_chat_id=_direct_chat(rows, matched),
                )
            )
    resolved = [_narrowed(user=user, item=item, rows=rows, masked=masked) for item in resolved]
    resolved.sort(key=lambda item: item.start)
    # "his mum" is not the contact saved as "Mum".
    resolved = [
        item
        for item in resolved
        if not (kin_relation(item.name) is not None and is_someone_elses(masked, item.start))
    ]
    resolved += _marked_relatives(user=user, tokens=tokens, resolved=resolved)
    resolved.sort(key=lambda item: item.start)
    # "Ana ... Ana" is one person mentioned twice.
    unique: list[_Resolved] = []
    for item in resolved:
        if not any(other.person_ids == item.person_ids for other in unique):
            unique.append(item)

    attached: dict[tuple[int, ...], list[str]] = {item.person_ids: [] for item in unique}
    unattached: list[str] = []
    own_relatives: list[_Descriptor] = []
    for descriptor in _descriptors(masked, excluded):
        bucket = unattached
        # "my sister Ana" describes Ana; "the dentist Sofia recommended" does not.
        possessive = _POSSESSIVE_BEFORE.search(masked[: descriptor.start]) is not None
        for item in resolved:
            inside = item.start <= descriptor.start < item.end
            right_before = masked[descriptor.end : item.start].strip() in ("", ",")
            if inside or (possessive and descriptor.end <= item.start and right_before):
                bucket = attached[item.person_ids]
                break
        if (
            bucket is unattached
            and descriptor.canonical in KIN_RELATIONS
            and means_users_relative(masked, descriptor.start, descriptor.end)
        ):
            own_relatives.append(descriptor)
            continue
        if descriptor.canonical not in bucket:
            bucket.append(descriptor.canonical)
    # "my brother", "reply to mom": the one person memory knows as that relative of the user
    # (``memory.kinship``) is named by those words.
    relatives = relatives_of_user(user=user, relations={d.canonical for d in own_relatives})
    for descriptor in own_relatives:
        relative = relatives.get(descriptor.canonical)
        if relative is None or any(item.person_ids == relative.person_ids for item in unique):
            if relative is None and descriptor.canonical not in unattached:
                unattached.append(descriptor.canonical)
            continue
        start = _OWN_BEFORE.search(masked[: descriptor.start])
        item = _Resolved(
            start=start.start() if start else descriptor.start,
            end=descriptor.end,
            name=text[start.start() if start else descriptor.start : descriptor.end],
            person_ids=relative.person_ids,
            direct_chat_id=relative.direct_chat_id,
        )
        resolved.append(item)
        unique.append(item)
        attached[item.person_ids] = []
    resolved.sort(key=lambda item: item.start)
    unique.sort(key=lambda item: item.start)

    refs = [
        PersonRef(
            name=item.name,
            person_ids=item.person_ids,
            descriptors=tuple(attached[item.person_ids]),
            chat_id=item.direct_chat_id,
        )
        for item in unique
    ]
    if unattached:
        refs.append(PersonRef(name=None, descriptors=tuple(unattached)))
    return refs, resolved, mentions


# Where someone is beats where they are going, which beats where they came from: "moved from
# Hamburg to Berlin" is about Berlin.
_PREPOSITION_RANK = {"to": 1, "into": 1, "from": 2}


def _location(
    masked: str, excluded: Sequence[tuple[int, int]]
) -> tuple[str, tuple[int, int], str] | None:
    found = [
        match for match in _LOCATION.finditer(masked) if not _inside(match.start("city"), excluded)
    ]
    if not found:
        return None
    best = min(found, key=lambda match: _PREPOSITION_RANK.get(match.group("prep"), 0))
    form = " ".join(best.group("city").split())
    return CITY_FORMS[form], best.span("city"), best.group("prep")


def _plan_statuses(masked: str) -> tuple[PlanStatus, ...]:
    found = tuple(status for status, regex in PLAN_STATUS_PATTERNS if regex.search(masked))
    return found or tuple(PlanStatus)


def _ranking(masked: str) -> Ranking:
    if _NEGLECTED.search(spelled_out(masked)):
        kind = RankingKind.NEGLECTED
    elif _MOST_MESSAGES.search(masked) and not _CLOSEST.search(masked):
        kind = RankingKind.MOST_MESSAGES
    else:
        kind = RankingKind.RELATIONSHIP_STRENGTH
    limit = DEFAULT_RANKING_LIMIT
    match = _RANKING_LIMIT.search(masked)
    if match:
        number = match.group("a") or match.group("b")
        limit = int(number) if number.isdigit() else _RANKING_NUMBER_WORDS[number]
    elif _RANKING_SINGLE.search(masked):
        limit = 1
    return Ranking(kind=kind, limit=max(1, min(limit, 100)), platforms=question_platforms(masked))


# Platform names as people say them ("on Slack", "over WhatsApp", "my texts").
_PLATFORM_WORDS = {
    "whatsapp": ("whatsapp", "whats app", "wa"),
    "telegram": ("telegram",),
    "imessage": ("imessage", "imessages"),
    "signal": ("signal",),
    "slack": ("slack",),
    "discord": ("discord",),
    "sms": ("sms", "text messages"),
    "email": ("email", "emails", "e-mail", "mail"),
}
_PLATFORM = re.compile(
    r"\b(?:on|over|in|via|through|by|from)\s+(?:the\s+)?(?P<name>"
    + "|".join(re.escape(form) for forms in _PLATFORM_WORDS.values() for form in forms)
    + r")\b"
)
_PLATFORM_OF_FORM = {form: key for key, forms in _PLATFORM_WORDS.items() for form in forms}


def question_platforms(masked: str) -> tuple[str, ...]:
    """The platforms a folded question restricts itself to ("who do I talk to most on
    Signal?"): a platform name after "on/over/in/via"."""
    found = [_PLATFORM_OF_FORM[match.group("name")] for match in _PLATFORM.finditer(masked)]
    return tuple(dict.fromkeys(found))


# A platform named by its messages, with no "on" before it: "work emails since monday?",
# "new slack messages today?", "any whatsapps?". "Texts" and "messages" name no platform (a
# text comes over SMS, iMessage or WhatsApp alike).
_MESSAGES_OF_PLATFORM = re.compile(
    r"\b(?:(?P<email>e-?mails?|mails)"
    r"|(?P<named>whatsapp|telegram|signal|slack|discord)\s+(?:messages|msgs|dms|pings|posts)"
    r"|(?P<plural>whatsapps|imessages|slacks|telegrams))\b"
)


def messages_platforms(masked: str) -> tuple[str, ...]:
    """The platforms a folded catch-up restricts itself to: those ``question_platforms``
    reads, and a platform named by its messages ("work emails", "slack messages")."""
    found = list(question_platforms(masked))
    for match in _MESSAGES_OF_PLATFORM.finditer(masked):
        if match.group("email"):
            found.append("email")
        elif match.group("named"):
            found.append(_PLATFORM_OF_FORM[match.group("named")])
        else:
            found.append(match.group("plural")[:-1])
    return tuple(dict.fromkeys(found))


_WHERE_SAVED = re.compile(
    r"\b(?:on|in)\s+(?:my\s+)?(?:contacts|phone|" + _PLATFORM_NAMES + r")\s*\?*\s*$"
)


def _where_asked(masked: str, intent: Intent) -> list[tuple[int, int]]:
    """ "Who is Bo on Telegram?", "who's Bo in my contacts?": where the person is saved
    places the question, it is no topic to search for."""
    if intent != Intent.IDENTITY_LOOKUP:
        return []
    match = _WHERE_SAVED.search(masked)
    return [match.span()] if match else []


def _keywords(
    *,
    text: str,
    tokens: Sequence[_Token],
    quoted: Sequence[tuple[int, int]],
    removed: Sequence[tuple[int, int]],
    city_span: tuple[int, int] | None,
    extra: Sequence[tuple[int, str]] = (),
) -> tuple[str, ...]:
    """Content terms in question order; a quoted phrase or a city stays one multi-word term,
    an identity nobody in the book has (an email, a handle) stays one term."""
    placed: list[tuple[int, str]] = list(extra)
    for start, end in quoted:
        phrase = " ".join(text[start + 1 : end - 1].split()).strip(" .,;:!?").lower()
        if phrase:
            placed.append((start, phrase))
    if city_span is not None:
        placed.append((city_span[0], " ".join(text[city_span[0] : city_span[1]].split()).lower()))
    for token in tokens:
        if _inside(token.start, removed) or _inside(token.start, quoted):
            continue
        if city_span is not None and city_span[0] <= token.start < city_span[1]:
            continue
        key = token.key
        if key in STOP_WORDS or key in ROUTING_WORDS or len(key) < 2:
            continue
        placed.append((token.start, token.surface.lower()))
    seen: set[str] = set()
    keywords = []
    for _position, keyword in sorted(placed, key=lambda item: item[0]):
        if keyword not in seen:
            seen.add(keyword)
            keywords.append(keyword)
    return tuple(keywords)


# The frame of a question about how something came out or what was the matter with it ("what
# did we end up ordering?", "how did it turn out?", "what was wrong with the car?"): the
# message that answers names the outcome or the cause itself ("it was the battery"), never
# the frame, so its words are not keywords (and cannot count as topics the history lacks).
_OUTCOME_FRAME = re.compile(
    r"\b(?:end|ends|ended|ending|wind|winds|winding|wound)\s+up\b"
    r"|\b(?:turn|turns|turned|turning)\s+out\b"
    r"|\b(?:went|go|goes|gone|going|is|was|were|are|s|anything|something)\s+wrong\b"
    r"|\bwrong\s+with\b"
)


def _outcome_frames(masked: str) -> list[tuple[int, int]]:
    return [match.span() for match in _OUTCOME_FRAME.finditer(masked)]


# Asking what was decided searches for the outcome's own word too: a decision is announced
# as "Decision: ..." far more often than with the verb the question uses.
_OUTCOME_VERBS = re.compile(r"\b(?:decide|decided|deciding|decides)\b")
_OUTCOME_NOUN = "decision"


def _outcome_nouns(masked: str) -> list[tuple[int, str]]:
    match = _OUTCOME_VERBS.search(masked)
    return [(match.start(), _OUTCOME_NOUN)] if match else []


# A question about what is still to come: future forms ("will", "going to", "'ll") and
# words of the schedule ("upcoming", "coming up").
_FUTURE = re.compile(
    r"\b(?:will|won't|shall|gonna|going\s+to|\w+'ll|upcoming|coming\s+up|scheduled)\b"
)
# The present continuous of an arrangement with a person as its subject ("are we reading",
# "is she coming"; not "what are people saying", which asks what was said): what is on now or
# next, so the nearest occurrence.
_ARRANGED = re.compile(
    r"\b(?:am\s+i|are\s+(?:we|you|they)|is\s+(?:he|she|\w+))\s+(?:still\s+|also\s+)?\w+ing\b"
)
# A question about what already happened: past auxiliaries and forms.
_BEHIND = re.compile(
    r"\b(?:did|didn't|was|wasn't|were|weren't|had|hadn't|happened|went|said|ago|used\s+to)\b"
)


_STILL = re.compile(r"\bstill\b")
_DAY_AHEAD = re.compile(
    r"\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|weekend|tonight|tomorrow)\b"
)


def _direction_for(intent: Intent, masked: str) -> Direction:
    """Which occurrence a bare date means: requested actions and questions in a future form
    take the next one ("what will Leo bring in October?" asked in March), plan questions and
    arrangements in the present continuous the nearest ("what are we reading in December?"
    asked in November), every other question the past one."""
    if intent == Intent.ACTION_REQUEST:
        return "future"
    worded_behind = bool(_BEHIND.search(masked))
    if _FUTURE.search(masked) and not worded_behind:
        return "future"
    if intent == Intent.PLAN_RECALL and _STILL.search(masked):
        # "Is Ana still landing Friday night?": a plan that has not happened yet.
        return "future"
    if intent == Intent.PLAN_RECALL and _DAY_AHEAD.search(masked) and not worded_behind:
        # "When is the table on Saturday?": a plan asked of a weekday is the coming one.
        return "future"
    if intent == Intent.PLAN_RECALL:
        return "nearest"
    if _ARRANGED.search(masked) and not worded_behind:
        return "nearest"
    return "past"


def compile_question(*, user: User, question: str, now: datetime, scope: Scope) -> CompiledQuery:
    """The structured query of ``question`` asked by ``user`` at ``now`` within ``scope``.

    Deterministic and model-free; one database query when the question may name someone (to
    resolve names against the user's people), none otherwise. ``scope`` must come from
    ``retrieval.routing.scope_resolve`` (ownership already checked).
    """
    if now.tzinfo is None:
        raise ValueError("compile_question needs an aware 'now'.")
    tz = user.zoneinfo
    text = canonical_question(unicodedata.normalize("NFC", question))
    folded = fold_text(text)
    quoted = _quoted_spans(folded)
    # Memory's readers see the quotes ("is 'Dad mobile' the same person as ...").
    form = reading_form(text)
    quoted_names = _quoted_names(user=user, text=text, quoted=quoted)
    if quoted_names:
        # A quoted name names someone: read without its quotes, like the same name unquoted.
        for index in sorted(quoted_names, reverse=True):
            start, end = quoted[index]
            text = f"{text[:start]} {text[start + 1 : end - 1]} {text[end:]}"
        text = " ".join(text.split())
        folded = fold_text(text)
        quoted = _quoted_spans(folded)
    masked = _mask(folded, quoted)
    intent, decided_by = classify_intent(masked)

    time_range, time_span = resolve_time_expression(
        _mask(text, quoted), now=now, tz=tz, direction=_direction_for(intent, spelled_out(masked))
    )
    if time_range is None and intent == Intent.CATCH_UP:
        time_range, _default_span = resolve_time_expression(CATCH_UP_DEFAULT_WINDOW, now=now, tz=tz)
    if time_range is not None and (
        intent in (Intent.PLAN_RECALL, Intent.ACTION_REQUEST)
        or (time_range.start_utc > now and not _BEHIND.search(masked))
    ):
        # A window that has not begun, asked about in other than the past tense, is when
        # something happens: nothing was sent in it yet, so it reads the messages sent before
        # it that speak of it.
        time_range = replace(time_range, applies_to=TimeTarget.EVENT)

    excluded = [*quoted, *([time_span] if time_span else [])]
    location_found = _location(masked, excluded)
    name_excluded = list(excluded)
    if location_found is not None and location_found[2] not in ("from", "to"):
        # "in Lisbon" is a place; "from Sydney" may be a person called Sydney.
        name_excluded.append(location_found[1])

    tokens = _tokens(text, folded)
    people, resolved, mentions = _people(
        user=user,
        text=text,
        masked=masked,
        tokens=tokens,
        excluded=excluded,
        name_excluded=name_excluded,
    )
    person_spans = [(item.start, item.end) for item in resolved]
    resolved_spans = set(person_spans)
    unresolved_mentions = [
        item for item in mentions if (item.start, item.end) not in resolved_spans
    ]
    location = None
    city_span = None
    if location_found is not None:
        city, span, _preposition = location_found
        if not any(start < span[1] and span[0] < end for start, end in person_spans):
            location = Location(city=city, as_of=_location_as_of(masked, time_range, now, user))
            city_span = span

    draft = CompiledQuery(
        # As typed; memory, the check and the answerer read ``form`` (through ``read_as``),
        # the canonical form the intent rules read ("Bo's still coming, right?" -> "is Bo
        # still coming?").
        question=question,
        intent=intent,
        scope=scope,
        route=Route.HYBRID,
        time_range=time_range,
        people=tuple(people),
        location=location,
        plan_status=_plan_statuses(masked) if intent == Intent.PLAN_RECALL else (),
        ranking=_ranking(masked) if intent == Intent.PEOPLE_RANKING else None,
        requested_action=(
            RequestedAction(type=decided_by.action)
            if decided_by is not None and decided_by.action is not None
            else None
        ),
        keywords=_keywords(
            text=text,
            tokens=tokens,
            quoted=quoted,
            removed=[
                *([time_span] if time_span else []),
                *person_spans,
                *((item.start, item.end) for item in mentions),
                *_where_asked(masked, intent),
                *_outcome_frames(masked),
            ],
            city_span=city_span,
            extra=[
                *((item.start, item.value) for item in unresolved_mentions),
                *_outcome_nouns(masked),
            ],
        ),
    )
    route = route_for(draft)
    compiled = replace(
        draft,
        route=route,
        route_fallback=route_fallback_for(route),
        semantic_text=_semantic_text(text, person_spans),
        form=form,
    )
    logger.info(
        "retrieval.query_compiled",
        extra={
            "user_id": user.pk,
            "intent": str(compiled.intent),
            "pattern": decided_by.name if decided_by else "default",
            "route": str(compiled.route),
            "scope_mode": str(scope.mode),
            "has_time_range": compiled.time_range is not None,
            "people_count": len(compiled.people),
            "keyword_count": len(compiled.keywords),
        },
    )
    return compiled


# What a resolved person becomes in the text the vector leg embeds (CompiledQuery.semantic_text).
PERSON_PLACEHOLDER = "someone"
_POSSESSIVE = re.compile(r"['\u2019]s$", re.IGNORECASE)


def _semantic_text(text: str, person_spans: Sequence[tuple[int, int]]) -> str:
    """``text`` with each resolved person's span replaced by ``PERSON_PLACEHOLDER`` (a
    possessive "'s" stays: "Ana's job" -> "someone's job"); the question itself when it names
    nobody."""
    if not person_spans:
        return text
    parts = []
    position = 0
    for start, end in sorted(person_spans):
        if start < position:
            continue
        parts.append(text[position:start])
        parts.append(PERSON_PLACEHOLDER)
        possessive = _POSSESSIVE.search(text, start, end)
        position = possessive.start() if possessive else end
    parts.append(text[position:])
    return "".join(parts)


def _location_as_of(
    masked: str, time_range: TimeRange | None, now: datetime, user: User
) -> datetime | None:
    """When the place held: the window's start, else now for present-tense questions ("who
    lives in Lisbon"), else unknown (the matched messages' times tell)."""
    if time_range is not None:
        return time_range.start
    if _PRESENT_TENSE.search(masked) and not re.search(r"\b(?:met|was|were|did)\b", masked):
        return now.astimezone(user.zoneinfo)
    return None
