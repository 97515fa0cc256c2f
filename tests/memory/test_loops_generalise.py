"""Loops said the many ways people say them: asks and requests to the user, the user's promises
("I'll send it tonight", "let me check and get back to you", "te lo mando"), closed in other
words, in another chat or on another platform ("sent!", "just venmo'd you", a photo after
"here you go"), and the yes/no and "what's open" questions asked about them. The cast and
sentences are written for these tests (``tests.memory.generalise``)."""

from __future__ import annotations

import pytest

from tests.memory.generalise import MEDIA, Line, Story, dm, group, story_failures

pytestmark = pytest.mark.django_db

MON, TUE, WED, THU, FRI = 0, 24, 48, 72, 96

STORIES = (
    # --- Did I …? -------------------------------------------------------------------------
    Story(
        name="paid back by venmo in another app",
        chats={"sam": dm("Sam"), "sam-sms": dm("Sam", platform="sms")},
        lines=(
            Line("sam", MON + 3, "Sam", "I covered the concert tickets, you owe me 18"),
            Line("sam", MON + 3.2, None, "omg thank you, I'll pay you back tomorrow"),
            Line("sam-sms", TUE + 4, None, "just venmo'd you the 18, thanks again!"),
        ),
        question="did I ever pay Sam back?",
        asked_hours=WED + 2,
        expect=("Yes",),
        refuse=("No",),
    ),
    Story(
        name="never paid back",
        chats={"sam": dm("Sam")},
        lines=(
            Line("sam", MON + 3, "Sam", "I covered the concert tickets, you owe me 18"),
            Line("sam", MON + 3.2, None, "omg thank you, I'll pay you back tomorrow"),
            Line("sam", TUE + 6, None, "what a night though"),
        ),
        question="did I ever pay Sam back?",
        asked_hours=WED + 2,
        expect=("No",),
        refuse=("Yes",),
    ),
    Story(
        name="promise in a group kept by 'sent!' in a direct chat",
        chats={"studio": group("Priya", "Jon"), "priya": dm("Priya", platform="signal")},
        lines=(
            Line("studio", MON + 2, "Priya", "does anyone have the floor plan for the studio?"),
            Line("studio", MON + 2.1, None, "I'll send you the floor plan tonight Priya"),
            Line("priya", MON + 12, None, "floor plan sent! check your email"),
        ),
        question="did I send Priya the floor plan?",
        asked_hours=WED + 2,
        expect=("Yes",),
        refuse=("No",),
    ),
    Story(
        name="here you go and a photo",
        chats={"jon": dm("Jon")},
        lines=(
            Line("jon", MON + 5, "Jon", "can you send me the receipt from the hardware store?"),
            Line("jon", MON + 5.2, None, "yes, will send the receipt when I'm home"),
            Line("jon", MON + 9, None, "here you go"),
            Line("jon", MON + 9.01, None, MEDIA),
        ),
        question="did I send Jon the receipt?",
        asked_hours=WED + 2,
        expect=("Yes",),
        refuse=("No",),
    ),
    Story(
        name="a question to the user never answered",
        chats={"omar": dm("Omar")},
        lines=(
            Line("omar", MON + 1, None, "welcome back! how was Lisbon?"),
            Line("omar", TUE + 2, "Omar", "are you coming to the housewarming on saturday?"),
            Line("omar", TUE + 2.1, "Omar", "need numbers for the food"),
        ),
        question="did I reply to Omar?",
        asked_hours=WED + 2,
        expect=("No",),
        refuse=("Yes",),
    ),
    Story(
        name="Spanish promise kept in other words",
        chats={"diego": dm("Diego")},
        lines=(
            Line("diego", MON + 6, "Diego", "\u00bfme pasas las fotos del viaje?"),
            Line("diego", MON + 6.2, None, "s\u00ed, te mando las fotos esta noche"),
            Line("diego", MON + 14, None, "listo, ya te las envi\u00e9"),
        ),
        question="did I send Diego the photos?",
        asked_hours=WED + 2,
        expect=("Yes",),
        refuse=("No",),
    ),
    # --- What's still open? ----------------------------------------------------------------
    Story(
        name="let me check and get back to you",
        chats={"priya": dm("Priya")},
        lines=(
            Line("priya", TUE + 1, "Priya", "could you run the workshop on the 12th?"),
            Line("priya", TUE + 1.3, None, "let me check and get back to you"),
        ),
        question="what's still open with Priya?",
        asked_hours=WED + 2,
        expect=("Priya",),
        refuse=("Nothing is waiting",),
    ),
    Story(
        name="get back closed in another chat",
        chats={"priya": dm("Priya"), "priya-mail": dm("Priya", platform="email")},
        lines=(
            Line("priya", TUE + 1, "Priya", "could you run the workshop on the 12th?"),
            Line("priya", TUE + 1.3, None, "let me check and get back to you"),
            Line(
                "priya-mail", TUE + 20, None, "checked my calendar: the workshop on the 12th works"
            ),
        ),
        question="did I get back to Priya about the workshop?",
        asked_hours=WED + 2,
        expect=("Yes",),
        refuse=("No",),
    ),
    Story(
        name="an ask in a group naming the user",
        chats={"book club": group("Priya", "Jon", "Ana")},
        lines=(
            Line("book club", MON + 4, None, "finished the book, loved the ending"),
            Line("book club", TUE + 3, "Priya", "Maya, can you bring the snacks on friday?"),
            Line("book club", TUE + 3.5, "Jon", "I'll do drinks"),
        ),
        question="what's still open with Priya?",
        asked_hours=WED + 2,
        expect=("Priya",),
        refuse=("Nothing is waiting",),
    ),
    Story(
        name="remind me to return it",
        chats={"ana": dm("Ana")},
        lines=(
            Line("ana", MON + 2, "Ana", "no rush but I'll need the drill back at some point"),
            Line("ana", MON + 2.2, None, "of course! I'll bring it back on the weekend"),
        ),
        question="what do I still owe Ana?",
        asked_hours=WED + 2,
        expect=("Ana",),
        refuse=("Nothing is waiting",),
    ),
    Story(
        name="a request to someone answered elsewhere",
        chats={"luis": dm("Luis"), "luis-mail": dm("Luis", platform="email")},
        lines=(
            Line("luis", MON + 4, None, "could you send me the invoice for March?"),
            Line("luis-mail", TUE + 2, "Luis", "Here's the March invoice, attached."),
        ),
        question="did Luis send the invoice?",
        asked_hours=WED + 2,
        expect=("Yes",),
        refuse=("No",),
    ),
    Story(
        name="Portuguese promise left open",
        chats={"joana": dm("Joana")},
        lines=(
            Line("joana", MON + 4, "Joana", "consegues me mandar o contrato?"),
            Line("joana", MON + 4.5, None, "claro, te mando o contrato amanh\u00e3"),
        ),
        question="did I send Joana the contract?",
        asked_hours=WED + 2,
        expect=("No",),
        refuse=("Yes",),
    ),
    # --- More wordings -----------------------------------------------------------------------
    Story(
        name="paid back with 'done' the next day",
        chats={"lena": dm("Lena")},
        lines=(
            Line("lena", MON + 12, "Lena", "dinner came to 46, so 23 each 🙂"),
            Line("lena", MON + 12.2, None, "I'll transfer you tomorrow"),
            Line("lena", TUE + 3, None, "done ✅"),
        ),
        question="did I ever pay Lena back?",
        asked_hours=WED + 2,
        expect=("Yes",),
        refuse=("No",),
    ),
    Story(
        name="Portuguese receipt closes the payment",
        chats={"joana": dm("Joana")},
        lines=(
            Line("joana", MON + 5, "Joana", "paguei os ingressos, 30 pra cada"),
            Line("joana", MON + 5.2, None, "te mando o pix amanhã!"),
            Line("joana", TUE + 6, "Joana", "recebi o pix, valeu!"),
        ),
        question="did I pay Joana back?",
        asked_hours=WED + 2,
        expect=("Yes",),
        refuse=("No",),
    ),
    Story(
        name="remind me to send it",
        chats={"kai": dm("Kai")},
        lines=(
            Line("kai", MON + 6, "Kai", "that playlist from the party was so good"),
            Line("kai", MON + 6.2, None, "remind me to send you the playlist!"),
        ),
        question="did I send Kai the playlist?",
        asked_hours=WED + 2,
        expect=("No",),
        refuse=("Yes",),
    ),
    Story(
        name="someone got back about the user's ask",
        chats={"ravi": dm("Ravi")},
        lines=(
            Line("ravi", MON + 2, None, "could you ask your landlord if the flat is still free?"),
            Line("ravi", TUE + 1, "Ravi", "asked him, the flat is free from April"),
        ),
        question="did Ravi ever get back to me about the flat?",
        asked_hours=WED + 2,
        expect=("Yes",),
        refuse=("No",),
    ),
    Story(
        name="who is waiting on me",
        chats={"kai": dm("Kai"), "lena": dm("Lena", platform="telegram")},
        lines=(
            Line("kai", MON + 1, None, "morning!"),
            Line("kai", TUE + 2, "Kai", "can you lend me your camping stove this weekend?"),
            Line("lena", MON + 1, None, "hallo!"),
            Line("lena", TUE + 5, "Lena", "do you still have the keys to the storage room?"),
        ),
        question="who's waiting on a reply from me?",
        asked_hours=WED + 2,
        expect=("Kai", "Lena"),
    ),
    Story(
        name="nothing left with someone",
        chats={"kai": dm("Kai")},
        lines=(
            Line("kai", MON + 6, "Kai", "can you send me the playlist from the party?"),
            Line("kai", MON + 6.2, None, "sure, here you go"),
            Line("kai", MON + 6.21, None, MEDIA),
            Line("kai", MON + 7, "Kai", "legend, thanks"),
        ),
        question="anything still open with Kai?",
        asked_hours=WED + 2,
        expect=("Nothing",),
    ),
    # --- Written after the rules, run once before any change (docs/MEMORY.md) ----------------
    Story(
        name="zelle'd on another platform",
        chats={"mia": dm("Mia", platform="instagram"), "mia-sms": dm("Mia", platform="sms")},
        lines=(
            Line("mia", MON + 4, "Mia", "I grabbed your museum ticket, 15 bucks"),
            Line("mia", MON + 4.1, None, "ty!! will pay you back tonight"),
            Line("mia-sms", MON + 13, None, "zelled you the 15 for the museum \U0001f64f"),
        ),
        question="did I pay Mia back for the museum?",
        asked_hours=WED + 2,
        expect=("Yes",),
        refuse=("No",),
    ),
    Story(
        name="an open ask from a colleague",
        chats={"nia": dm("Nia", platform="slack")},
        lines=(
            Line("nia", MON + 1, None, "morning Nia"),
            Line("nia", TUE + 1, "Nia", "could you look over the Q2 budget sheet before Friday?"),
        ),
        question="what's still open with Nia?",
        asked_hours=WED + 2,
        expect=("Nia",),
        refuse=("Nothing is waiting",),
    ),
    Story(
        name="a promise kept with a file in another chat",
        chats={"crew": group("Nia", "Tomas"), "nia": dm("Nia", platform="slack")},
        lines=(
            Line("crew", MON + 2, "Nia", "who has the slides from the offsite?"),
            Line("crew", MON + 2.1, None, "me, I'll send you the slides later Nia"),
            Line("nia", MON + 7, None, "offsite slides attached"),
        ),
        question="did I send Nia the slides?",
        asked_hours=WED + 2,
        expect=("Yes",),
        refuse=("No",),
    ),
    Story(
        name="let me get back to you, never did",
        chats={"sam": dm("Sam")},
        lines=(
            Line("sam", MON + 2, "Sam", "can you come to my gig on the 20th?"),
            Line("sam", MON + 2.3, None, "I'll let you know by tomorrow!"),
        ),
        question="did I get back to Sam about the gig?",
        asked_hours=WED + 2,
        expect=("No",),
        refuse=("Yes",),
    ),
)


@pytest.mark.parametrize("story", STORIES, ids=[story.name for story in STORIES])
def test_loop_stories(maya, story):
    problems = story_failures(maya, story)
    assert not problems, "; ".join(problems)
