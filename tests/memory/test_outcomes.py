"""How an event turned out (``memory.outcomes``): the question wordings that ask for an
outcome, the messages that report one, and whole stories where the announcement names the
event and the result comes later in other words. The cast, events and sentences are written
for these tests; the week starts Monday 2 March 2026 (``tests.memory.generalise``)."""

from __future__ import annotations

import pytest

from memory.outcomes import STRONG, WEAK, _gloss, outcome_ask, result_strength
from tests.memory.generalise import Line, Story, dm, group, story_failures

MON, TUE, WED, THU, FRI, SAT, SUN = 0, 24, 48, 72, 96, 120, 144


@pytest.mark.parametrize(
    ("question", "terms"),
    [
        ("how did the cup final go", ("cup", "final")),
        ("How did my driving test go in the end?", ("driving", "test")),
        ("how did the pitch go?", ("pitch",)),
        ("how did dad's scan go", ("dad", "scan")),
        ("how did we do in the pub quiz?", ("pub", "quiz")),
        ("how did Ines and Tom do at the relay", ("relay",)),
        ("how was the wedding?", ("wedding",)),
        ("how were the exams", ("exams",)),
        ("how's the app launch doing, any numbers?", ("app", "launch")),
        ("how is the new shop going so far", ("shop",)),
        ("what was my 10k time?", ("10k",)),
        ("what was the derby score", ("derby",)),
        ("Rosa's swim time?", ("swim",)),
        ("what was actually wrong with the dishwasher?", ("dishwasher",)),
        ("what was the problem with the car in the end", ("car",)),
        ("did I pass", ()),
        ("did we win the raffle?", ("raffle",)),
        ("did Mira pass her driving test?", ("driving", "test")),
        ("any news from the interview?", ("interview",)),
        ("¿cómo fue el partido?", ("partido",)),
        ("que tal os fue en la carrera", ("carrera",)),
        ("como correu a entrevista?", ("entrevista",)),
        ("com'è andata la partita?", ("partita",)),
        ("comment s'est passé l'examen ?", ("examen",)),
        ("wie war das Konzert?", ("konzert",)),
    ],
)
def test_outcome_questions_name_their_event(question, terms):
    asked = outcome_ask(question)
    assert asked is not None
    assert asked.terms == terms


@pytest.mark.parametrize(
    "question",
    [
        "when is the cup final?",
        "what time does the party start?",
        "how was Ana?",
        "how did it go",
        "how do I get to the stadium?",
        "where is the wedding?",
        "who is coming to the quiz?",
        "what did Bo say about the launch?",
        "where's Bo's party tomorrow and what time?",
        "what's the pickup time?",
    ],
)
def test_other_questions_ask_no_outcome(question):
    assert outcome_ask(question) is None


def test_fault_and_ongoing_questions_are_told_apart():
    assert outcome_ask("what was wrong with the boiler?").is_fault
    assert outcome_ask("how's the beta doing?").is_ongoing
    assert not outcome_ask("how did the beta go?").is_ongoing


@pytest.mark.parametrize(
    "text",
    [
        # Contests.
        "Lost 3-2 on penalties, gutted",
        "we came second!! silver medal baby",
        "Knocked out in the quarter finals but what a run",
        # Times.
        "Finished in 48:10, new PB",
        # Exams and interviews.
        "PASSED first time 🎉",
        "They offered me the job!!",
        # Launches.
        "Week one: 2,300 downloads and 4.6 stars",
        "we're live 🚀",
        # Repairs and check-ups.
        "Technician came, it was the door seal, replaced it",
        "bloods came back all clear",
        # Other languages.
        "¡Ganamos la final 2-0!",
        "Passei no exame!",
        "il tecnico ha sostituito la pompa",
        "Prüfung bestanden!!",
        "khám xong rồi, bác sĩ bảo mọi thứ ổn",
        "Alhamdulillah lulus ujian!",
        "kita kalah 2-3 tadi",
    ],
)
def test_reports_of_a_result_are_strong(text):
    assert result_strength(text) == STRONG


@pytest.mark.parametrize("text", ["Congrats everyone 🎉", "so proud of you", "well done team!"])
def test_congratulations_alone_are_weak(text):
    assert result_strength(text) == WEAK


@pytest.mark.parametrize(
    "text",
    [
        "🎉🎉🎉",
        "[Photo]",
        "<media omitted>",
        "good luck tomorrow!",
        "did you win?",
        "lol",
        "mai con đi khám nha",
        "on my way",
    ],
)
def test_emoji_photos_wishes_and_questions_report_nothing(text):
    assert result_strength(text) == 0.0


def _story(name, lines, question, asked, expect, refuse=()):
    return Story(
        name=name,
        chats={
            "team": group("Nadia Brook", "Olu Adeyemi"),
            "fix": dm("Priya Venkat"),
            "work": group("Kofi Mensah", "Lena Strauss", platform="slack"),
        },
        lines=tuple(lines),
        question=question,
        asked_hours=asked,
        expect=expect,
        refuse=refuse,
    )


STORIES = (
    # A contest: the announcement names the final and its day; the score comes after it.
    _story(
        "cup final lost on penalties",
        [
            Line("team", MON + 2, "Nadia Brook", "Cup final is Saturday 7 March at 3pm, Riverside"),
            Line("team", MON + 3, None, "can't wait"),
            Line("team", SAT + 4, "Olu Adeyemi", "good luck all!"),
            Line("team", SAT + 9, "Nadia Brook", "Lost 3-2 on penalties. Gutted but so proud"),
            Line("team", SAT + 10, "Olu Adeyemi", "🎉🎉"),
        ],
        "how did the cup final go",
        SUN + 3,
        ("3-2", "Lost"),
        ("Riverside",),
    ),
    # A place reached, told without the event's name.
    _story(
        "relay placed second",
        [
            Line(
                "team", MON + 2, "Olu Adeyemi", "Relay entries done: we run Thursday 5 March, 7pm"
            ),
            Line("team", THU + 12, "Olu Adeyemi", "came second!! silver for the old legs"),
        ],
        "how did we do in the relay?",
        FRI + 1,
        ("came second",),
    ),
    # A repair: what was wrong is said after the fault was first reported.
    _story(
        "dishwasher door seal",
        [
            Line("fix", MON + 1, None, "Hi Priya, the dishwasher is leaking all over the floor"),
            Line("fix", MON + 3, "Priya Venkat", "Sorry! I'll send someone Wednesday"),
            Line(
                "fix", WED + 6, "Priya Venkat", "The technician says it was the door seal, replaced"
            ),
            Line("fix", WED + 7, None, "thanks!"),
        ],
        "what was actually wrong with the dishwasher?",
        FRI + 1,
        ("door seal",),
    ),
    # A launch asked in the present: the numbers after it, not the go-live cheer.
    _story(
        "app launch numbers",
        [
            Line("work", MON + 1, "Kofi Mensah", "App launch is set for Tuesday 3 March"),
            Line("work", TUE + 1, "Kofi Mensah", "We're live 🚀"),
            Line("work", FRI + 2, "Lena Strauss", "First week: 2,300 downloads and 4.6 stars"),
        ],
        "how's the app launch doing, any numbers?",
        SAT + 1,
        ("2,300",),
    ),
    # Settled one-on-one, reported by the same person (saved under a shorter name) in a group.
    Story(
        name="check-up reported in the family group",
        chats={"ana": dm("Marta Ruiz"), "family": group("Marta", "Pilar Ruiz")},
        lines=(
            Line("ana", MON + 2, None, "Marta can you take dad to his scan on Wed 4 March? 9am"),
            Line("ana", MON + 3, "Marta Ruiz", "sure"),
            Line("family", WED + 5, "Marta", "scan done, all clear, next one in a year"),
            Line("family", WED + 6, "Pilar Ruiz", "🙏"),
        ),
        question="how did dad's scan go?",
        asked_hours=THU + 1,
        expect=("all clear",),
    ),
    # An exam asked in Portuguese.
    _story(
        "exam passed, asked in Portuguese",
        [
            Line("team", MON + 1, "Olu Adeyemi", "exame de condução na quarta 4 de março às 10h"),
            Line("team", WED + 5, "Olu Adeyemi", "Passei no exame!! 🎉"),
        ],
        "como correu o exame?",
        THU + 1,
        ("Passei",),
    ),
)


@pytest.mark.django_db
@pytest.mark.parametrize("story", STORIES, ids=lambda story: story.name)
def test_the_report_after_the_event_leads(user, story):
    assert story_failures(user, story) == []


@pytest.mark.django_db
def test_an_event_still_ahead_is_said_not_to_have_happened(user):
    story = _story(
        "cup final ahead",
        [
            Line("team", MON + 2, "Nadia Brook", "Cup final is Saturday 7 March at 3pm, Riverside"),
            Line("team", MON + 3, "Olu Adeyemi", "we won the semi 2-1 btw"),
        ],
        "how did the cup final go?",
        WED + 1,
        ("hasn't happened yet", "Saturday 7 March"),
        ("2-1",),
    )
    assert story_failures(user, story) == []


@pytest.mark.django_db
def test_a_past_event_nobody_reported_on_is_said_to_have_no_report(user):
    story = _story(
        "quiz with no word after",
        [
            Line("team", MON + 2, "Nadia Brook", "Pub quiz Tuesday 3 March, 8pm at the Anchor"),
            Line("team", TUE + 3, "Olu Adeyemi", "running late, save me a seat"),
            Line("team", WED + 4, "Nadia Brook", "[Photo]"),
        ],
        "how did the pub quiz go?",
        FRI + 1,
        ("no message", "Pub quiz"),
    )
    assert story_failures(user, story) == []


def _race_story(question, expect=(), refuse=()):
    return Story(
        name=f"race results: {question}",
        chats={"club": group("Nadia Brook", "Olu Adeyemi", "Rui Costa")},
        lines=(
            Line("club", MON + 1, "Nadia Brook", "Park run Saturday 7 March, 8am, see you there"),
            Line("club", MON + 2, "Olu Adeyemi", "I'll do the 5k, not the 10k"),
            Line("club", SAT + 3, "Nadia Brook", "Well done all! Rui ran 41:20, a PB"),
        ),
        question=question,
        asked_hours=SUN + 1,
        expect=expect,
        refuse=refuse,
    )


@pytest.mark.django_db
def test_a_result_naming_the_person_asked_about_answers(user):
    story = _race_story("what was Rui's park run time?", expect=("41:20",))
    assert story_failures(user, story) == []


@pytest.mark.django_db
def test_someone_elses_result_told_by_the_person_asked_about_is_not_theirs(user):
    # Nadia posted Rui's time, not her own: no report of Nadia's time leads.
    story = _race_story("what was Nadia's park run time?", refuse=("41:20",))
    assert story_failures(user, story) == []


@pytest.mark.parametrize(
    ("text", "english"),
    [
        ("Semifinales!! perdimos 6-3", "semi-finals, lost"),
        ("Passei no exame!", "passed"),
        ("abbiamo vinto 2-0", "won"),
        ("Prüfung bestanden", "passed"),
    ],
)
def test_result_words_of_other_languages_are_said_in_english(text, english):
    assert _gloss(text) == english


@pytest.mark.parametrize("text", ["we lost 6-3 in the semis", "Runners up!!", "final on sat"])
def test_english_reports_need_no_gloss(text):
    assert _gloss(text) == ""


@pytest.mark.django_db
def test_a_later_plan_of_the_same_people_is_not_the_event_ahead(user):
    story = Story(
        name="drive done, a family dinner ahead",
        chats={"fam": group("Tomas Lind", "Eva Lind")},
        lines=(
            Line("fam", MON + 1, "Tomas Lind", "we drive to Porto on Tuesday 3 March with the dog"),
            Line("fam", TUE + 10, "Tomas Lind", "Made it to Porto!! the dog was a champ"),
            Line(
                "fam", WED + 1, "Eva Lind", "Family dinner here Saturday 14 March, Tomas flies in"
            ),
        ),
        question="how did Tomas's drive to Porto go?",
        asked_hours=THU + 1,
        expect=(),
        refuse=("hasn't happened",),
    )
    assert story_failures(user, story) == []
