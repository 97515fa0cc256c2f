from __future__ import annotations

import pytest

from memory.extract import (
    fulfils_promise,
    is_question_to_user,
    is_request_by_user,
    plan_signal,
    promise_object,
)
from memory.models import PlanStatus


@pytest.mark.parametrize(
    ("text", "status", "activity", "place", "event_label", "is_proposal"),
    [
        ("dinner Friday at 8?", None, "dinner", "", "Friday at 8", True),
        (
            "Lunch at Casa Nova on Sunday at 1pm?",
            None,
            "lunch",
            "Casa Nova",
            "on Sunday at 1pm",
            True,
        ),
        ("let's do Saturday instead", PlanStatus.CHANGED, "", "", "Saturday", False),
        ("can't make it tomorrow, sorry", PlanStatus.CANCELLED, "", "", "tomorrow", False),
        ("Count me in!", PlanStatus.CONFIRMED, "", "", "", False),
        # A booking is a plan already arranged: it starts one, confirmed.
        ("Booked: Casa Nova, Friday 8pm", PlanStatus.CONFIRMED, "booking", "", "Friday 8pm", True),
        ("We had dinner yesterday, it was lovely", None, "dinner", "", "", False),
        ("Drinks in Chiado Friday?", None, "drinks", "Chiado", "Friday", True),
    ],
)
def test_plan_signal_reads_status_activity_place_and_time(
    text, status, activity, place, event_label, is_proposal
):
    signal = plan_signal(text)
    assert (
        signal.status,
        signal.activity,
        signal.place,
        signal.event_label,
        signal.is_proposal,
    ) == (
        status,
        activity,
        place,
        event_label,
        is_proposal,
    )


@pytest.mark.parametrize(
    "text",
    [
        "me ha salido trabajo el sábado, lo de Toledo se cae, ¿otro finde?",
        "vale, otro finde entonces",
        "work came up saturday, another weekend then?",
        "on se fait ça une autre fois, désolée",
    ],
)
def test_a_plan_that_falls_through_or_is_put_off_to_no_day_is_off(text):
    assert plan_signal(text).status == PlanStatus.CANCELLED


def test_a_change_takes_the_new_time_not_the_old_one():
    signal = plan_signal("Friday is bad for me, could we move it to Saturday at 9 instead?")
    assert (signal.status, signal.event_label) == (PlanStatus.CHANGED, "Saturday at 9")


def test_questions_to_the_user_need_a_question_addressed_to_them():
    assert is_question_to_user(
        "Can you send the keys?", user_name="Sam", is_direct=True, replies_to_user=False
    )
    assert is_question_to_user(
        "any news on the report?", user_name="Sam", is_direct=True, replies_to_user=False
    )
    assert not is_question_to_user(
        "Lovely day, isn't it", user_name="Sam", is_direct=True, replies_to_user=False
    )
    # In a group, only when it names the user or replies to them.
    assert not is_question_to_user(
        "Can you all vote?", user_name="Sam", is_direct=False, replies_to_user=False
    )
    assert is_question_to_user(
        "@Sam can you vote?", user_name="Sam", is_direct=False, replies_to_user=False
    )
    assert is_question_to_user(
        "Did you vote?", user_name="Sam", is_direct=False, replies_to_user=True
    )


def test_requests_and_promises():
    assert is_request_by_user("Could you send me the invoice?")
    assert not is_request_by_user("I could send it tomorrow")
    assert promise_object("Sure, I'll send the report tomorrow.") == "report"
    assert promise_object("I'll send them tonight") == ""
    assert promise_object("I'll cook tonight") is None
    assert fulfils_promise("Here they are!", is_media=False, promised_object="")
    assert fulfils_promise("the report is attached", is_media=False, promised_object="report")
    assert fulfils_promise("", is_media=True, promised_object="report")
    assert not fulfils_promise("Thanks, see you", is_media=False, promised_object="report")


@pytest.mark.parametrize(
    "text",
    ["phew, the 9th is a go for me", "ok 14-16 works, I'll sort the dog", "thursday works"],
)
def test_a_day_agreed_to_in_short_words_confirms(text):
    assert plan_signal(text).status == PlanStatus.CONFIRMED


def test_something_working_again_is_not_an_agreement():
    assert plan_signal("the heater works again, thanks Ilse").status is None


def test_the_change_closed_by_instead_is_the_plans_own_when_another_is_told_first():
    signal = plan_signal("work moved my shift to the 3rd, can we push dinner to the 5th instead?")
    assert signal.status == PlanStatus.CHANGED
    assert signal.event_label == "the 5th"
    # "instead of" names the time given up: the change said before it stays the new one.
    assert plan_signal("lets do sat at 8 instead of fri").event_label == "sat at 8"
