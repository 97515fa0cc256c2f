"""A small history written for the people tests: one person across identities and platforms,
relations said in passing, nicknames, new numbers, two people sharing a first name.

Nothing here comes from an evaluation corpus. The owner lives in London; the cast:

- Dana Whitfield, the user's flatmate: WhatsApp as +44 7700 900123, SMS from the same number
  written nationally (07700 900123), then a new number that introduces itself ("it's Dana
  btw, new phone").
- Leo Marsh, the user's cousin: by email (signed "Leo") and on WhatsApp as "Leo 🦁".
- Sam Ortiz, the user's boss, on Slack; Sam Lee, from bouldering, on WhatsApp.
- Daniel Park, "our landlord Mr. Park", by SMS.
- Maya, the user's sister, saved as "Bubbles 🫧".
- Priya Shah and Tom Becker, who each write from a new number.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from claire.accounts.models import User
from conversations.identities import IncomingIdentity
from conversations.models import Chat, ChatKind, Message
from conversations.services import IncomingChat, IncomingMessage, messages_ingest
from memory import services

# Monday 2 March 2026, 09:00 UTC (London is UTC in early March).
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
NOW = T0 + timedelta(days=20)

DANA_WA = IncomingIdentity(
    platform="whatsapp", phone="+44 7700 900123", display_name="Dana Whitfield"
)
DANA_SMS = IncomingIdentity(platform="sms", phone="07700 900123", display_name="Dana")
DANA_NEW = IncomingIdentity(platform="whatsapp", phone="+44 7911 555018")
LEO_EMAIL = IncomingIdentity(
    platform="email", email="Leo.Marsh@fernmail.test", display_name="Leo Marsh"
)
LEO_WA = IncomingIdentity(platform="whatsapp", phone="+351 912 000 111", display_name="Leo 🦁")
AUNT_WA = IncomingIdentity(platform="whatsapp", phone="+351 912 000 222", display_name="Aunt Carol")
SAM_SLACK = IncomingIdentity(
    platform="slack", platform_user_id="U01SAM", handle="sortiz", display_name="Sam Ortiz"
)
SAM_CLIMB = IncomingIdentity(platform="whatsapp", phone="+44 7700 900555", display_name="Sam Lee")
JO_CLIMB = IncomingIdentity(platform="whatsapp", phone="+44 7700 900556", display_name="Jo Reyes")
PARK_SMS = IncomingIdentity(platform="sms", phone="+44 20 7946 0456", display_name="Mr Park")
MAYA_WA = IncomingIdentity(platform="whatsapp", phone="+44 7700 900321", display_name="Bubbles 🫧")
PRIYA_OLD = IncomingIdentity(
    platform="whatsapp", phone="+44 7700 900789", display_name="Priya Shah"
)
PRIYA_NEW = IncomingIdentity(platform="whatsapp", phone="+44 7400 123999")
TOM_OLD = IncomingIdentity(platform="signal", phone="+351 912 345 678", display_name="Tom Becker")
TOM_NEW = IncomingIdentity(platform="signal", phone="+351 936 111 222")


def _chat(
    chat_id: str, platform: str, *members: IncomingIdentity, title: str = "", group: bool = False
) -> IncomingChat:
    return IncomingChat(
        platform=platform,
        platform_chat_id=chat_id,
        title=title,
        kind=ChatKind.GROUP if group else ChatKind.DIRECT,
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


CHATS: tuple[tuple[IncomingChat, tuple[IncomingMessage, ...]], ...] = (
    (
        _chat("wa-dana", "whatsapp", DANA_WA, title="Dana Whitfield"),
        (
            _said("d1", 1, "did you take the bins out?", DANA_WA),
            _said("d2", 1.2, "yep! also our landlord Mr. Park says the boiler man comes Tuesday"),
            _said("d3", 30, "my sister Maya is staying with us next weekend, is that ok?"),
            _said("d4", 30.5, "of course!! I love Maya", DANA_WA),
        ),
    ),
    (
        _chat("sms-dana", "sms", DANA_SMS),
        (_said("ds1", 50, "locked out, are you home?? no data on my phone", DANA_SMS),),
    ),
    (
        _chat("wa-dana-new", "whatsapp", DANA_NEW),
        (
            _said(
                "dn1", 200, "hey it's Dana btw, new phone! old one got nicked on the bus", DANA_NEW
            ),
            _said("dn2", 200.3, "oh no!! saved, thanks"),
        ),
    ),
    (
        _chat(
            "wa-partner",
            "whatsapp",
            IncomingIdentity(platform="whatsapp", phone="+44 7700 900999", display_name="Chris ❤️"),
        ),
        (
            _said("p1", 5, "my boss Sam wants the quarterly report by Friday, late night ahead"),
            _said(
                "p2",
                5.5,
                "ugh, want me to bring dinner?",
                IncomingIdentity(
                    platform="whatsapp", phone="+44 7700 900999", display_name="Chris ❤️"
                ),
            ),
            _said("p3", 70, "my flatmate Dana got locked out again lol"),
        ),
    ),
    (
        _chat("email-leo", "email", LEO_EMAIL, title="Lisbon in June"),
        (
            _said(
                "e1",
                10,
                "Hi! Mum says you might come to Lisbon in June. The spare room is yours."
                "\n\nCheers,\nLeo",
                LEO_EMAIL,
            ),
            _said("e2", 12, "Amazing, thank you Leo! I'll book flights this week."),
        ),
    ),
    (
        _chat("wa-family", "whatsapp", LEO_WA, AUNT_WA, title="Marsh family", group=True),
        (
            _said("f1", 20, "Chris, meet my cousin Leo! He just moved to Lisbon"),
            _said("f2", 20.2, "Olá everyone 😄", LEO_WA),
            _said("f3", 20.4, "so lovely to have you both in the group", AUNT_WA),
        ),
    ),
    (
        _chat("slack-sam", "slack", SAM_SLACK, title="Sam Ortiz"),
        (
            _said("s1", 3, "Can you send me the quarterly report draft by Friday?", SAM_SLACK),
            _said("s2", 3.5, "Sure, I'll have it to you Thursday evening"),
            _said(
                "s3",
                80,
                "Great work on the report. Let's discuss the budget review Monday.",
                SAM_SLACK,
            ),
        ),
    ),
    (
        _chat("wa-climb", "whatsapp", SAM_CLIMB, JO_CLIMB, title="Bouldering crew", group=True),
        (
            _said(
                "c1",
                40,
                "who's climbing Thursday? the new problems at the wall look great",
                SAM_CLIMB,
            ),
            _said("c2", 40.5, "me! need to work on my crimps", JO_CLIMB),
            _said("c3", 41, "count me in for bouldering Thursday"),
        ),
    ),
    (
        _chat("sms-park", "sms", PARK_SMS),
        (
            _said(
                "k1",
                6,
                "Hello, this is Daniel Park about the flat at 12 Elm Road. The boiler engineer"
                " will come on Tuesday morning.",
                PARK_SMS,
            ),
            _said("k2", 6.5, "Thanks Mr Park, someone will be in."),
        ),
    ),
    (
        _chat("wa-maya", "whatsapp", MAYA_WA),
        (
            _said("m1", 25, "Happy birthday Maya!! 🎂 can't wait to see you next weekend"),
            _said("m2", 25.5, "thanks sis!! train gets in at 6 on Friday x", MAYA_WA),
        ),
    ),
    (
        _chat("wa-priya-old", "whatsapp", PRIYA_OLD),
        (_said("r1", 15, "are we still on for the pottery class?", PRIYA_OLD),),
    ),
    (
        _chat("wa-priya-new", "whatsapp", PRIYA_NEW),
        (
            _said(
                "r2",
                220,
                "Hi! This is Priya, I got a new number, please delete the old one",
                PRIYA_NEW,
            ),
        ),
    ),
    (
        _chat("sig-tom-old", "signal", TOM_OLD),
        (_said("t1", 16, "fancy a pint after work on Wednesday?", TOM_OLD),),
    ),
    (
        _chat("sig-tom-new", "signal", TOM_NEW),
        (_said("t2", 230, "New number, Tom here 👋 lost my old sim in Porto", TOM_NEW),),
    ),
)


def people_history_load(user: User) -> None:
    """Ingest the history through the conversations service and derive memory."""
    for chat, messages in CHATS:
        messages_ingest(
            user=user, chats=[chat], messages=[(chat.platform_chat_id, m) for m in messages]
        )
    services.memory_refresh(
        user=user, chat_ids=list(Chat.objects.filter(user=user).values_list("pk", flat=True))
    )


def message_pk(user: User, platform_chat_id: str, platform_message_id: str) -> int:
    return Message.objects.get(
        user=user, chat__platform_chat_id=platform_chat_id, platform_message_id=platform_message_id
    ).pk


# A second history, written after the rules above, to check they hold for another owner and
# cast: a US owner, numbers written the North American way, a landlady, a neighbour, a cousin
# saved under a nickname who signs her name, two Alexes.
JORDAN_IM = IncomingIdentity(platform="imessage", phone="(415) 555-0134", display_name="Jordan")
JORDAN_WA = IncomingIdentity(
    platform="whatsapp", phone="+1 415 555 0134", display_name="Jordan Ellis"
)
JORDAN_NEW = IncomingIdentity(platform="imessage", phone="+1 628 555 0199")
NINA_EMAIL = IncomingIdentity(
    platform="email", email="nina.alvarez@brightloop.test", display_name="Nina Alvarez"
)
BEN_WA = IncomingIdentity(platform="whatsapp", phone="+1 415 555 0177", display_name="Ben")
GRACE_SMS = IncomingIdentity(platform="sms", phone="+1 510 555 0142", display_name="Grace Okafor")
RAVI_IM = IncomingIdentity(platform="imessage", phone="+1 415 555 0111", display_name="Ravi 🌶️")
LUCY_WA = IncomingIdentity(platform="whatsapp", phone="+1 917 555 0123", display_name="Peanut 🥜")
ALEX_SLACK = IncomingIdentity(
    platform="slack", platform_user_id="U02ALEX", handle="alexk", display_name="Alex Kim"
)
ALEX_BOOKS = IncomingIdentity(
    platform="whatsapp", phone="+1 415 555 0188", display_name="Alex Moreno"
)
RUI_SMS = IncomingIdentity(platform="sms", phone="(415) 555-0150", display_name="Rui plumber")
RUI_WA = IncomingIdentity(platform="whatsapp", phone="+1 415 555 0150", display_name="Rui Costa")
BO_TG = IncomingIdentity(platform="telegram", phone="+1 415 555 0190", display_name="Bo 🐝")
MEI_BOOKS = IncomingIdentity(platform="whatsapp", phone="+1 415 555 0189", display_name="Mei")

SECOND_CHATS: tuple[tuple[IncomingChat, tuple[IncomingMessage, ...]], ...] = (
    (
        _chat("im-jordan", "imessage", JORDAN_IM),
        (
            _said("j1", 2, "are you coming to the game saturday?", JORDAN_IM),
            _said("j2", 2.5, "wouldn't miss it"),
        ),
    ),
    (
        _chat("wa-jordan", "whatsapp", JORDAN_WA),
        (_said("j3", 30, "sending the tickets here, check your email too", JORDAN_WA),),
    ),
    (
        _chat("im-jordan-new", "imessage", JORDAN_NEW),
        (_said("j4", 300, "yo it's Jordan, switched carriers so this is my new #", JORDAN_NEW),),
    ),
    (
        _chat("email-nina", "email", NINA_EMAIL, title="Q3 roadmap"),
        (
            _said("n1", 8, "Here are my notes on the roadmap.\n\n\u2013 Nina", NINA_EMAIL),
            _said("n2", 9, "Thanks Nina, reading now."),
        ),
    ),
    (
        _chat("wa-ben", "whatsapp", BEN_WA),
        (
            _said("b1", 12, "my coworker Nina sent the best roadmap notes, she's brilliant"),
            _said("b2", 40, "our landlady Mrs Okafor texted about the leak under the sink"),
            _said("b3", 41, "ugh again? ok", BEN_WA),
            _said("b4", 60, "my neighbor Ravi is lending us his ladder"),
            _said("b5", 61, "my cousin Lucy lands at 7, can you grab her?"),
            _said("b6", 90, "ok big news... Mei and I got engaged!!! 💍", BEN_WA),
        ),
    ),
    (
        _chat("sms-grace", "sms", GRACE_SMS),
        (_said("g1", 39, "The plumber can come Thursday between 9 and 11.", GRACE_SMS),),
    ),
    (
        _chat("im-ravi", "imessage", RAVI_IM),
        (_said("v1", 59, "ladder's by your door!", RAVI_IM),),
    ),
    (
        _chat("wa-lucy", "whatsapp", LUCY_WA),
        (
            _said("l1", 62, "thanks Lucy!! safe flight"),
            _said("l2", 62.5, "see you soon!!\nlove, Lucy", LUCY_WA),
        ),
    ),
    (
        _chat("tg-bo", "telegram", BO_TG),
        (_said("o1", 80, "my flatmate Jo says hi!! see you at the gig", BO_TG),),
    ),
    (
        _chat("sms-rui", "sms", RUI_SMS),
        (_said("u1", 44, "I can come Tuesday at 10 to fix the leak", RUI_SMS),),
    ),
    (
        _chat("wa-rui", "whatsapp", RUI_WA),
        (_said("u2", 100, "sent you the invoice for the sink, thanks!", RUI_WA),),
    ),
    (
        _chat("slack-alex", "slack", ALEX_SLACK, title="Alex Kim"),
        (_said("a1", 5, "Can you review my PR before standup?", ALEX_SLACK),),
    ),
    (
        _chat("wa-books", "whatsapp", ALEX_BOOKS, MEI_BOOKS, title="Book club 📚", group=True),
        (
            _said("k1", 70, "next book club pick: Piranesi! who's read it?", ALEX_BOOKS),
            _said("k2", 70.5, "ooh not yet", MEI_BOOKS),
        ),
    ),
)


def second_history_load(user: User) -> None:
    """The second history, ingested the same way."""
    for chat, messages in SECOND_CHATS:
        messages_ingest(
            user=user, chats=[chat], messages=[(chat.platform_chat_id, m) for m in messages]
        )
    services.memory_refresh(
        user=user, chat_ids=list(Chat.objects.filter(user=user).values_list("pk", flat=True))
    )
