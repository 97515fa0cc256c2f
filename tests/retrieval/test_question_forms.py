"""The question surface-form normaliser (retrieval.question_forms): each rule on sentences
written for the test, the questions it must leave alone, and the intent the compiler reads
from the canonical form."""

from __future__ import annotations

import pytest

from retrieval import question_forms
from retrieval.compile import classify_intent
from retrieval.lexicon import fold_text
from retrieval.question_forms import canonical_question, reading_form, spell_out
from retrieval.types import Intent


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("r u around tmrw?", "are you around tomorrow?"),
        ("msg Oriel that the van is fixed pls", "message Oriel that the van is fixed please"),
        ("any mtgs w/ Dov this wknd?", "any meetings with Dov this weekend?"),
        ("wat time is the bday thing 2nite", "what time is the birthday thing tonight"),
        ("did Pim txt abt the keys b4 lunch?", "did Pim text about the keys before lunch?"),
        ("whens the appt", "when's the appointment"),
        ("what time's the ferry", "what time is the ferry"),
        ("talk 2 Wren 4 me", "talk to Wren for me"),
        ("u wanna grab lunch?", "you want to grab lunch?"),
    ],
)
def test_texting_shorthand_is_spelled_out(question: str, expected: str) -> None:
    assert canonical_question(question) == expected


@pytest.mark.parametrize(
    "question",
    [
        "are we meeting at 2 or 4?",  # numbers, not words
        "what did Tomasz W say?",  # an initial, not "with"
        "who's coming to the BF reunion?",  # an acronym in capitals is no texting form
        "is Dr Okafor in on Monday?",  # a title is not spelled out
        "U said what?",  # an upper-case single letter may be an initial
        "the 4 of us at 2 pm?",
    ],
)
def test_shorthand_lookalikes_are_kept(question: str) -> None:
    assert spell_out(question) == question


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("we're still meeting at six, right?", "are we still meeting at six?"),
        ("it's still on Thursday, isn't it?", "is it still on Thursday?"),
        ("they're coming to the picnic, yeah?", "are they coming to the picnic?"),
        ("we still on for the hike, no?", "are we still on for the hike?"),
        ("Marek is driving, correct?", "is Marek driving?"),
        ("Ines's bringing dessert, right?", "is Ines bringing dessert?"),
        ("Ines's party is at eight, right?", "Ines's party is at eight?"),
    ],
)
def test_tag_questions_are_dropped(question: str, expected: str) -> None:
    assert canonical_question(question) == expected


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("the pottery class — when is it?", "when is the pottery class?"),
        ("Zofia, who is she", "who is Zofia?"),
        ("the boat trip: what time does it leave?", "what time does the boat trip leave?"),
        ("harvest fair -- where is it?", "where is harvest fair?"),
        ("the gallery opening, when?", "when is the gallery opening?"),
        ("The recital is when?", "when is the recital?"),
        ("the recital's where again?", "where is the recital?"),
        ("Teodor's surname - what is it?", "what is Teodor's surname?"),
    ],
)
def test_a_fronted_topic_moves_into_its_question(question: str, expected: str) -> None:
    assert canonical_question(question) == expected


@pytest.mark.parametrize(
    "question",
    [
        "I rang Teodor — what did he want?",  # a clause, not a topic
        "When is the pottery class?",
        "Who is Zofia?",
        "the plumber came, when was it?",  # a verb in front
        "so, when is it?",  # no topic word
        "we sorted the rota — who is on call?",
        "what did Lio say about the co-op - is it closing?",
        "Pim's bike trip, when does she leave?",  # "she" is Pim, not the trip
    ],
)
def test_ordinary_questions_and_inner_dashes_are_unchanged(question: str) -> None:
    assert canonical_question(question) == question


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Teodor's full name?", "what is Teodor's full name?"),
        ("Zofia Brandt's phone number?", "what is Zofia Brandt's phone number?"),
        ("Lio's email address?", "what is Lio's email address?"),
        ("grant application deadline?", "when is the grant application deadline?"),
        ("our thesis due date?", "when is our thesis due date?"),
        ("the vet's number?", "what is the vet's number?"),
    ],
)
def test_a_verbless_fragment_becomes_its_question(question: str, expected: str) -> None:
    assert canonical_question(question) == expected


@pytest.mark.parametrize(
    "question",
    [
        "Teodor's 5k time?",  # a result or an event time: ambiguous, left alone
        "Teodor's?",
        "what's the deadline?",
        "who set the deadline?",
        "what is Lio's number?",
        "and Lio's email?",
    ],
)
def test_ambiguous_fragments_are_left(question: str) -> None:
    assert canonical_question(question) == question


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("can you get Oriel to send the invoice?", "can you ask Oriel to send the invoice?"),
        ("could u get Pim to call the landlord", "could you ask Pim to call the landlord"),
        ("get the choir group to vote on a date", "ask the choir group to vote on a date"),
        ("who do I Signal the most?", "who do I message the most on Signal?"),
        ("who did I telegram most this month", "who did I message most this month on telegram"),
        (
            "which three friends did I Slack the most?",
            "which three friends did I message the most on Slack?",
        ),
    ],
)
def test_requests_and_platform_verbs(question: str, expected: str) -> None:
    assert canonical_question(question) == expected


@pytest.mark.parametrize(
    "question",
    [
        "can you get me a ticket to Porto?",
        "can you get the bike to the shop?",
        "did Oriel get Pim to sign it?",  # a question about what happened, not a request
        "how do I get to the venue?",
    ],
)
def test_get_that_is_no_request_is_left(question: str) -> None:
    assert canonical_question(question) == question


def test_quoted_text_is_never_rewritten() -> None:
    assert canonical_question("who is 'Bee u' on Signal?") == "who is 'Bee u' on Signal?"
    assert canonical_question('r u "Tmrw Club" member?') == 'are you "Tmrw Club" member?'


def test_a_rewrite_that_would_drop_a_content_word_keeps_the_question(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def drops_last_word(text: str) -> str:
        return text.rsplit(" ", 1)[0] + "?"

    monkeypatch.setattr(question_forms, "_RULES", (drops_last_word,))
    # "harbour" would be lost: the question is kept, its shorthand still spelled out.
    assert canonical_question("r we meeting at the harbour") == "are we meeting at the harbour"
    # Only a stop word is lost: the rewrite stands.
    assert (
        canonical_question("r we meeting at the harbour then") == "are we meeting at the harbour?"
    )


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        ("the pottery class — when is it?", Intent.PLAN_RECALL),
        ("we're still meeting Sunday, right?", Intent.PLAN_RECALL),
        ("Teodor's full name?", Intent.IDENTITY_LOOKUP),
        ("Zofia, who is she", Intent.IDENTITY_LOOKUP),
        ("can you get Oriel to send the invoice?", Intent.ACTION_REQUEST),
        ("msg Oriel that I'm running late", Intent.ACTION_REQUEST),
        ("who do I WhatsApp the most?", Intent.PEOPLE_RANKING),
    ],
)
def test_the_compiler_reads_the_canonical_form(question: str, intent: Intent) -> None:
    assert classify_intent(fold_text(question))[0] != intent
    assert classify_intent(fold_text(canonical_question(question)))[0] == intent


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Who's Marek on Signal?", "Who is Marek on Signal?"),
        ("Oriel 🌵 on Telegram — who's that?", "who is Oriel 🌵 on Telegram?"),
        ("whos Teodor", "who is Teodor"),
        ("we're still meeting Sunday, right?", "are we still meeting Sunday?"),
        ('who\'s "Bee u" on Signal?', 'who is "Bee u" on Signal?'),
    ],
)
def test_the_reading_form_is_the_canonical_form_with_who_is_spelled_out(
    question: str, expected: str
) -> None:
    assert reading_form(question) == expected


def test_the_reading_form_leaves_quotes_and_other_contractions() -> None:
    assert reading_form('did Ana write "who\'s there"?') == 'did Ana write "who\'s there"?'
    assert reading_form("what's Ana's number?") == "what's Ana's number?"


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Teodor's actual name is what?", "what is Teodor's actual name?"),
        ("the venue for the gala was what again?", "what was the venue for the gala?"),
        ("Zofia's new address is what??", "what is Zofia's new address?"),
    ],
)
def test_what_left_in_place_after_its_auxiliary_moves_to_the_front(
    question: str, expected: str
) -> None:
    assert canonical_question(question) == expected


@pytest.mark.parametrize(
    "question", ["Teodor's what?", "I told Bo what?", "so he said what?", "she is what"]
)
def test_what_in_place_without_a_topic_or_an_auxiliary_is_left(question: str) -> None:
    assert canonical_question(question) == question


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Teodor's actual name?", "what is Teodor's actual name?"),
        ("zofia's legal name?", "what is zofia's legal name?"),
        ("Oriel's flight to Oslo, what time", "what time is Oriel's flight to Oslo?"),
        ("the pottery class — when", "when is the pottery class?"),
        ("how'd we do at the quiz", "how did we do at the quiz"),
        ("where'd Marek park the van?", "where did Marek park the van?"),
    ],
)
def test_more_fragments_fronted_topics_and_contractions(question: str, expected: str) -> None:
    assert canonical_question(question) == expected
