"""Loop questions asked in other words (``retrieval.question_forms`` loop forms and the loop
phrasings of ``retrieval.compile``): each form on sentences written for the test, in English
and, for the list questions, in other languages; and the questions they must leave alone."""

from __future__ import annotations

import pytest

from retrieval.compile import classify_intent
from retrieval.lexicon import fold_text
from retrieval.people_context import describing_words
from retrieval.question_forms import canonical_question
from retrieval.types import Intent


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # The person's receipt of the user's deed is the user's deed.
        ("did Oriel get the floor plans from me", "did I send Oriel the floor plans?"),
        ("has Priya received the contract from me yet?", "have I sent Priya the contract yet?"),
        ("did Tom ever get the keys from me?", "did I ever send Tom the keys?"),
        ("so did Wren Abara get the invoice from me?", "so did I send Wren Abara the invoice?"),
        # Telling in other words.
        ("Did I ever let Dov know about the new date?", "Did I ever tell Dov about the new date?"),
        ("have I let Marta know about the swap?", "have I told Marta about the swap?"),
        ("did I give Omar a heads-up about the delay?", "did I tell Omar about the delay?"),
        ("did I fill Lena in on the move?", "did I tell Lena about the move?"),
        # A thing arriving is the user getting it.
        ("did the refund ever come through?", "did I ever get the refund?"),
        ("has my parcel arrived yet?", "did I get my parcel yet?"),
        ("did the signed lease show up", "did I get the signed lease?"),
        # Done with a thing is having finished it.
        ("Is Kai done with the slides?", "has Kai finished the slides?"),
        ("is Noor finished with the budget yet?", "has Noor finished the budget yet?"),
        ("are the twins done with the puzzle?", "have the twins finished the puzzle?"),
        # The person's word that they got the user's thing is the user's deed; money is paid.
        ("did Oriel ever confirm she got my share", "did I ever pay Oriel my share?"),
        ("has Tom said he received my deposit?", "have I paid Tom my deposit?"),
        ("did Wren tell me she got my postcard", "did I send Wren my postcard?"),
        ("did Dov confirm that they got the forms from me", "did I send Dov the forms?"),
        # Whether the user promised anything is what they promised.
        ("did I promise Lena anything for the move?", "what did I promise Lena for the move?"),
        ("have I promised anyone something?", "what did I promise anyone?"),
        ("did I ever agree to do anything for Omar", "what did I agree to do for Omar?"),
    ],
)
def test_loop_questions_in_other_words_take_the_loop_form(question: str, expected: str) -> None:
    assert canonical_question(question) == expected


@pytest.mark.parametrize(
    "question",
    [
        "did Ana get the job?",
        "did Rui get back to me?",
        "did the flight land?",
        "did Bo get the tickets from the box office?",
        "is it done with?",
        "did I let the cat out?",
        "did I give Omar the charger?",
        "did Ana say she got the job?",
        "did Bo confirm he got lost?",
        "did I promise to call Lena?",
    ],
)
def test_other_questions_keep_their_form(question: str) -> None:
    assert canonical_question(question) == question


@pytest.mark.parametrize(
    ("question", "rule"),
    [
        ("did Oriel get the floor plans from me", "did_i_do"),
        ("Did I ever let Dov know about the new date?", "did_i_do"),
        ("did the refund ever come through?", "did_i_receive"),
        ("has my parcel arrived yet?", "did_i_receive"),
        # "yet" after the verb of saying.
        ("has Ciro said yet whether he can drive me?", "did_they_say_if"),
        ("has Lou confirmed yet if the room is free", "did_they_say_if"),
        ("did Ama let me know yet whether she's in?", "did_they_say_if"),
        ("has Pim got the tickets from me", "did_i_do"),
        # Promises still open, asked as what the user said they'd do and haven't.
        ("anything at the lab I said I'd do and haven't?", "promises"),
        ("stuff I promised to sort out but didn't", "promises"),
        ("things I agreed to do and still haven't", "promises"),
        # Who is waiting on the user, in other words.
        ("who am I leaving on read", "waiting_on_me"),
        ("who have I left hanging?", "waiting_on_me"),
        ("who have I been ghosting lately", "waiting_on_me"),
        # Money owed, in other words and languages.
        ("Who am I owing money to?", "what_do_i_owe"),
        ("who do I still owe?", "what_do_i_owe"),
        ("am I owing anyone?", "what_do_i_owe"),
        ("¿a quién le debo dinero?", "what_do_i_owe"),
        ("pra quem eu devo dinheiro?", "what_do_i_owe"),
        ("wem schulde ich noch Geld?", "what_do_i_owe"),
        # What is still open, in other words.
        ("Which things are still left hanging?", "still_open"),
        ("what's still up in the air?", "still_open"),
        ("anything left dangling with Sam?", "still_open"),
        ("what things are not yet sorted", "still_open"),
    ],
)
def test_loop_phrasings_compile_as_unresolved(question: str, rule: str) -> None:
    intent, pattern = classify_intent(fold_text(canonical_question(question)))
    assert intent == Intent.UNRESOLVED
    assert pattern is not None and pattern.name == rule


@pytest.mark.parametrize(
    "question",
    [
        "a quién le debo escribir?",
        "who left the door open?",
        "what did Ana leave on the table?",
        "is the air con up in the loft?",
    ],
)
def test_look_alikes_are_no_loop_questions(question: str) -> None:
    intent, _pattern = classify_intent(fold_text(canonical_question(question)))
    assert intent != Intent.UNRESOLVED


@pytest.mark.parametrize(
    ("question", "name", "word"),
    [
        ("did I ever give the tent back to climbing Rosa?", "rosa", "climbing"),
        ("did I send the photos to running Ana?", "ana", "running"),
        ("have I returned the book to swimming Leo", "leo", "swimming"),
        ("devolví la tienda a climbing Rosa?", "rosa", "climbing"),
    ],
)
def test_a_word_in_ing_after_to_describes_the_name(question: str, name: str, word: str) -> None:
    folded = fold_text(question)
    start = folded.index(name)
    found = [found for found, _start, _end in describing_words(folded, start, start + len(name))]
    assert word in found


@pytest.mark.parametrize(
    ("question", "name"),
    [("remember to call Rosa", "rosa"), ("I need to pay Ana back", "ana")],
)
def test_a_verb_after_to_does_not_describe_the_name(question: str, name: str) -> None:
    folded = fold_text(question)
    start = folded.index(name)
    assert describing_words(folded, start, start + len(name)) == []
