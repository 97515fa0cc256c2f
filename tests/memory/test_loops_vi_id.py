"""Loops asked, taken on and closed in Vietnamese and Indonesian, in a history that mixes them
with English: "remember to buy …" from a relative in a family group, "ok, I remember" as the
reply, "I bought … already" days later in a direct chat; a photo asked for with "tolong" and
sent with "udah aku kirim". Cast and sentences are written for these tests; the user is Maya."""

from __future__ import annotations

import pytest

from memory.closure import says_arrived, says_delivered, says_done, says_paid
from memory.extract import is_ask, puts_off, takes_on
from retrieval.compile import classify_intent
from retrieval.lexicon import fold_text
from tests.memory.generalise import Line, Story, dm, group, story_failures

MON, TUE, WED, THU, FRI = 0, 24, 48, 72, 96
WEEK = 7 * 24

_AUNT_ASKS = (
    Line(
        "family",
        MON + 2,
        "Cô Hằng",
        "Chủ nhật cả nhà qua nhà cô ăn trưa. Maya nhớ mua bánh flan ở chợ Bến Thành nha",
    ),
    Line("family", MON + 2.1, None, "dạ con nhớ rồi cô"),
    Line("family", TUE + 4, "Tuấn", "anh tới trễ chút"),
)

STORIES = (
    Story(
        name="a Vietnamese reminder to buy something, asked back in English",
        chats={"family": group("Cô Hằng", "Tuấn"), "hang": dm("Cô Hằng")},
        lines=_AUNT_ASKS,
        question="what did Hang ask me to buy",
        asked_hours=WED + 3,
        expect=("bánh flan",),
        intent="unresolved",
    ),
    Story(
        name="a Vietnamese reminder, reported bought days later in a direct chat",
        chats={"family": group("Cô Hằng", "Tuấn"), "hang": dm("Cô Hằng")},
        lines=(
            *_AUNT_ASKS,
            Line(
                "hang", FRI + 6, None, "Cô ơi con đã mua bánh flan ở chợ rồi, chủ nhật con đem qua"
            ),
        ),
        question="did i buy the bánh flan for Hang",
        asked_hours=FRI + 9,
        expect=("Yes",),
        refuse=("Not yet", "No,"),
        intent="unresolved",
    ),
    Story(
        name="an Indonesian request taken on and sent later",
        chats={"sari": dm("Sari Lestari")},
        lines=(
            Line(
                "sari", MON + 9, "Sari Lestari", "Maya, tolong kirim foto paspor kamu ya, buat visa"
            ),
            Line("sari", MON + 9.5, None, "siap, nanti aku kirim"),
            Line("sari", WED + 20, None, "udah aku kirim fotonya ke email kamu"),
        ),
        question="did I send Sari the passport photo",
        asked_hours=THU + 2,
        expect=("Yes",),
        refuse=("Not yet", "No,"),
        intent="unresolved",
    ),
    Story(
        name="an Indonesian request only taken on stays open",
        chats={"sari": dm("Sari Lestari")},
        lines=(
            Line(
                "sari", MON + 9, "Sari Lestari", "Maya, tolong kirim foto paspor kamu ya, buat visa"
            ),
            Line("sari", MON + 9.5, None, "siap, nanti aku kirim"),
            Line("sari", TUE + 20, "Sari Lestari", "makasih! oh iya besok hujan katanya"),
        ),
        question="did I send Sari the passport photo",
        asked_hours=THU + 2,
        expect=("No",),
        refuse=("Yes",),
        intent="unresolved",
    ),
)


@pytest.mark.django_db
@pytest.mark.parametrize("story", STORIES, ids=[story.name for story in STORIES])
def test_loops_in_vietnamese_and_indonesian(maya, story):
    problems = story_failures(maya, story)
    assert not problems, "; ".join(problems)


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("Lan nhớ gửi hình cho chị nha", True),
        ("đừng quên trả sách cho thầy nhé", True),
        ("em ơi giúp chị đón bé lúc 5 giờ nha", True),
        ("jangan lupa bayar listrik ya", True),
        ("Dewi, tolong ambil paket di depan", True),
        ("bisa kamu jemput aku di stasiun?", True),
        # Missing someone, a plan, a greeting: nothing is asked.
        ("con nhớ mẹ quá", False),
        ("mai đi biển nha", False),
        ("aku udah sampai rumah", False),
    ],
)
def test_requests_in_vietnamese_and_indonesian(text, asks):
    assert is_ask(text) is asks


@pytest.mark.parametrize(
    ("text", "done"),
    [
        ("con gửi tiền cho bác rồi nha", True),
        ("em đã chuyển khoản", True),
        ("udah aku transfer ya", True),
        ("sudah kubayar tadi pagi", True),
        ("xong rồi chị", True),
        ("beres, bos", True),
        ("con nhớ rồi", False),
        ("nanti aku transfer", False),
        ("mua rồi chưa?", False),
    ],
)
def test_done_in_vietnamese_and_indonesian(text, done):
    assert says_done(text) is done


def test_deliveries_receipts_and_take_ons_in_vietnamese_and_indonesian():
    assert says_delivered("chị gửi sách cho em rồi")
    assert says_delivered("paketnya sudah dikirim")
    assert not says_delivered("xong rồi")
    assert says_arrived("em nhận được rồi, cảm ơn chị")
    assert says_arrived("udah nyampe, makasih")
    assert not says_arrived("kapan sampai?")
    assert takes_on("dạ con nhớ rồi")
    assert takes_on("siap kak")
    assert takes_on("oke, nanti aku cek")
    assert not takes_on("con nhớ mẹ")
    assert puts_off("em sẽ gửi tối nay")
    assert puts_off("besok ya")
    assert not puts_off("udah aku kirim")


@pytest.mark.parametrize(
    "question",
    [
        "what did mum ask me to buy",
        "what did my aunt want me to bring",
        "what has Sari asked me to send",
        "what did Bo remind me to pick up",
    ],
)
def test_what_someone_asked_of_the_user_is_a_loop_question(question):
    intent, _pattern = classify_intent(fold_text(question))
    assert intent == "unresolved"


@pytest.mark.parametrize(
    "question", ["what did mum ask about the wedding", "what did Sari tell me about Bali"]
)
def test_what_someone_said_stays_a_question(question):
    intent, _pattern = classify_intent(fold_text(question))
    assert intent != "unresolved"


@pytest.mark.parametrize(
    ("text", "paid"),
    [
        ("sent you the $60 for the concert tickets", True),
        ("paid you back this morning", True),
        ("udah aku transfer ya", True),
        ("em chuyển khoản cho chị rồi nha", True),
        ("will pay you tonight", False),
        ("sent you the photos", False),
        ("did you get the $60?", False),
    ],
)
def test_payments_say_money_went_over(text, paid):
    assert says_paid(text) is paid


_DEBT = (
    Line("ines", MON + 8, "Ines Duarte", "Maya you still owe me $45 for the ferry tickets"),
    Line("ines", MON + 8.2, None, "oh right, this weekend ok?"),
)

PAY_STORIES = (
    Story(
        name="a debt paid later is answered as paid",
        chats={"ines": dm("Ines Duarte")},
        lines=(
            *_DEBT,
            Line("ines", THU + 19, None, "sent you the $45 for the ferry, thanks again"),
        ),
        question="have i paid ines back",
        asked_hours=FRI + 2,
        expect=("Yes: you paid Ines Duarte on",),
        refuse=("replied",),
        intent="unresolved",
    ),
    Story(
        name="a debt only answered is not said to be paid",
        chats={"ines": dm("Ines Duarte")},
        lines=_DEBT,
        question="have i paid ines back",
        asked_hours=FRI + 2,
        expect=(),
        refuse=("you paid",),
        intent="unresolved",
    ),
)


@pytest.mark.django_db
@pytest.mark.parametrize("story", PAY_STORIES, ids=[story.name for story in PAY_STORIES])
def test_debts_closed_by_a_payment(maya, story):
    problems = story_failures(maya, story)
    assert not problems, "; ".join(problems)
