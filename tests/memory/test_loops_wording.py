"""Loops in wordings the loop rules were not written from: asks without a question mark or a
"you", asks and promises in Spanish, French, Portuguese, Italian and German, promises that only
say "will do", deliveries that are a link, a file or a reply to the ask, a third person saying it
arrived, and the questions asked about them ("has X sent …", "is X still …", "who's waiting on
me", "what do I owe"). Cast and sentences are written for these tests
(``tests.memory.generalise``); the user is Maya."""

from __future__ import annotations

import pytest

from tests.memory.generalise import MEDIA, Line, Story, dm, group, story_failures

pytestmark = pytest.mark.django_db

MON, TUE, WED, THU, FRI = 0, 24, 48, 72, 96
NEXT_MON = 168

ASKS = (
    Story(
        name="imperative ask without a question mark, never answered",
        chats={"wren": dm("Wren")},
        lines=(
            Line("wren", MON + 1, None, "back from the trip, exhausted"),
            Line("wren", TUE + 2, "Wren", "pls send me the wifi password for the cabin when u can"),
        ),
        question="who's waiting on a reply from me?",
        asked_hours=WED + 3,
        expect=("Wren",),
    ),
    Story(
        name="Spanish ask with no second-person pronoun",
        chats={"lucia": dm("Lucia")},
        lines=(
            Line("lucia", MON + 1, None, "hola! qué tal el finde?"),
            Line("lucia", TUE + 5, "Lucia", "¿me mandas el contrato del piso cuando puedas?"),
        ),
        question="who's waiting on a reply from me?",
        asked_hours=WED + 3,
        expect=("Lucia",),
    ),
    Story(
        name="French ask with tu",
        chats={"benoit": dm("Benoit")},
        lines=(
            Line("benoit", MON + 1, None, "salut Benoit, bien rentré"),
            Line("benoit", TUE + 5, "Benoit", "tu peux m'envoyer le devis du menuisier ?"),
        ),
        question="what's still unresolved?",
        asked_hours=WED + 3,
        expect=("Benoit",),
    ),
    Story(
        name="Italian ask answered later by a file",
        chats={"giulia": dm("Giulia")},
        lines=(
            Line("giulia", MON + 1, None, "ciao! com'è andata la cena?"),
            Line("giulia", TUE + 5, "Giulia", "mi mandi la ricevuta dell'hotel?"),
            Line("giulia", TUE + 9, None, MEDIA),
        ),
        question="did I send Giulia the hotel receipt?",
        asked_hours=WED + 3,
        expect=("Yes",),
        refuse=("No",),
    ),
    Story(
        name="German ask still open",
        chats={"hannah": dm("Hannah")},
        lines=(
            Line("hannah", MON + 1, None, "Hallo Hannah, wie geht's?"),
            Line("hannah", TUE + 5, "Hannah", "kannst du mir die Rechnung vom Umzug schicken?"),
            Line("hannah", TUE + 5.5, None, "klar, mache ich morgen"),
        ),
        question="what do I owe people?",
        asked_hours=THU + 3,
        expect=("Hannah",),
    ),
    Story(
        name="Portuguese ask in a group naming the user",
        chats={"obra": group("Rafael", "Tomas")},
        lines=(
            Line("obra", MON + 1, None, "bom dia pessoal"),
            Line("obra", TUE + 5, "Rafael", "Maya, consegue mandar a planta da cozinha hoje?"),
            Line("obra", TUE + 5.2, "Tomas", "eu preciso dela também"),
        ),
        question="who's waiting on me?",
        asked_hours=WED + 3,
        expect=("Rafael",),
    ),
)

PROMISES = (
    Story(
        name="will do as the promise, kept by a link",
        chats={"kenji": dm("Kenji")},
        lines=(
            Line("kenji", MON + 3, "Kenji", "could you share the slides from the offsite?"),
            Line("kenji", MON + 3.1, None, "will do!"),
            Line("kenji", TUE + 2, None, "https://drive.example.com/offsite-slides"),
        ),
        question="did I ever send Kenji the slides?",
        asked_hours=WED + 3,
        expect=("Yes",),
        refuse=("No",),
    ),
    Story(
        name="will do as the promise, never kept",
        chats={"kenji": dm("Kenji")},
        lines=(
            Line("kenji", MON + 3, "Kenji", "could you share the slides from the offsite?"),
            Line("kenji", MON + 3.1, None, "will do!"),
            Line("kenji", TUE + 20, "Kenji", "lunch on thursday?"),
            Line("kenji", TUE + 20.5, None, "sure, 1pm works"),
        ),
        question="did I ever send Kenji the slides?",
        asked_hours=THU + 3,
        expect=("No",),
        refuse=("Yes",),
    ),
    Story(
        name="Italian promise kept with fatto",
        chats={"ottavia": dm("Ottavia")},
        lines=(
            Line("ottavia", MON + 3, "Ottavia", "hai ancora le foto della laurea?"),
            Line("ottavia", MON + 3.2, None, "sì! te le mando domani"),
            Line("ottavia", TUE + 10, None, "fatto, controlla la mail"),
        ),
        question="did I send Ottavia the photos?",
        asked_hours=THU + 3,
        expect=("Yes",),
        refuse=("No",),
    ),
    Story(
        name="Italian promise lo faccio domani left open",
        chats={"ottavia": dm("Ottavia")},
        lines=(
            Line("ottavia", MON + 3, "Ottavia", "mi puoi prenotare il tavolo per sabato?"),
            Line("ottavia", MON + 3.2, None, "lo faccio domani"),
        ),
        question="what's still unresolved?",
        asked_hours=THU + 3,
        expect=("Ottavia",),
    ),
    Story(
        name="French promise kept on another platform",
        chats={"benoit": dm("Benoit"), "benoit-mail": dm("Benoit", platform="email")},
        lines=(
            Line("benoit", MON + 3, None, "je t'envoie le plan du garage ce soir"),
            Line("benoit-mail", MON + 12, None, "voilà le plan du garage, c'est envoyé"),
        ),
        question="did I send Benoit the garage plan?",
        asked_hours=WED + 3,
        expect=("Yes",),
        refuse=("No",),
    ),
    Story(
        name="promise to pay back, paid in Portuguese",
        chats={"tomas": dm("Tomas")},
        lines=(
            Line("tomas", MON + 3, "Tomas", "paguei o estacionamento, 12 euros"),
            Line("tomas", MON + 3.2, None, "valeu! te passo amanhã"),
            Line("tomas", TUE + 9, None, "pronto, pix feito ✅"),
        ),
        question="did I pay Tomas back for the parking?",
        asked_hours=THU + 3,
        expect=("Yes",),
        refuse=("No",),
    ),
    Story(
        name="promise kept by replying to the ask with a file in a group",
        chats={"trip": group("Farah", "Kenji")},
        lines=(
            Line(
                "trip",
                MON + 3,
                "Farah",
                "Maya can you post the ferry tickets here?",
                message_id="ask",
            ),
            Line("trip", MON + 3.1, None, "yes, I'll post them after work"),
            Line("trip", TUE + 2, None, MEDIA, reply_to="ask"),
        ),
        question="did I send Farah the ferry tickets?",
        asked_hours=WED + 3,
        expect=("Yes",),
        refuse=("No",),
    ),
    Story(
        name="a third person confirms it arrived",
        chats={"farah": dm("Farah"), "team": group("Farah", "Kenji")},
        lines=(
            Line("farah", MON + 3, "Farah", "can you send your portfolio to my manager?"),
            Line("farah", MON + 3.1, None, "of course, I'll send it tonight"),
            Line("team", TUE + 4, "Kenji", "Maya, your portfolio arrived, thanks!"),
        ),
        question="did I send Farah the portfolio?",
        asked_hours=WED + 3,
        expect=("Yes",),
        refuse=("No",),
    ),
)

REQUESTS = (
    Story(
        name="has X sent it yet: delivered as a file",
        chats={"ines": dm("Ines")},
        lines=(
            Line("ines", MON + 3, None, "would you mind sending me the floor measurements?"),
            Line("ines", MON + 3.5, "Ines", "sure, tonight"),
            Line("ines", TUE + 1, "Ines", MEDIA),
        ),
        question="has Ines sent the measurements yet?",
        asked_hours=WED + 3,
        expect=("Yes",),
        refuse=("No",),
    ),
    Story(
        name="has X sent it yet: only put off",
        chats={"ines": dm("Ines")},
        lines=(
            Line("ines", MON + 3, None, "would you mind sending me the floor measurements?"),
            Line("ines", MON + 3.5, "Ines", "sure, tonight"),
        ),
        question="has Ines sent the measurements yet?",
        asked_hours=WED + 3,
        expect=("No",),
        refuse=("Yes",),
    ),
    Story(
        name="Spanish request answered with a link",
        chats={"lucia": dm("Lucia")},
        lines=(
            Line("lucia", MON + 3, None, "¿me pasas el enlace del formulario?"),
            Line("lucia", MON + 9, "Lucia", "https://forms.example.org/inscripcion"),
        ),
        question="did Lucia ever send me the form?",
        asked_hours=WED + 3,
        expect=("Yes",),
        refuse=("No",),
    ),
    Story(
        name="did X get back to me: answered on another platform",
        chats={"rafael": dm("Rafael"), "rafael-sl": dm("Rafael", platform="slack")},
        lines=(
            Line("rafael", MON + 3, None, "can you check if the van is free on the 20th?"),
            Line("rafael-sl", TUE + 2, "Rafael", "the van is free on the 20th, booked it for you"),
        ),
        question="did Rafael ever get back to me about the van?",
        asked_hours=WED + 3,
        expect=("Yes",),
        refuse=("No",),
    ),
    Story(
        name="was it sorted: nobody named",
        chats={"landlord": dm("Pietro")},
        lines=(
            Line("landlord", MON + 3, None, "the boiler is leaking again, can you get it fixed?"),
            Line("landlord", MON + 4, "Pietro", "I'll call the plumber and let you know"),
        ),
        question="was the boiler ever sorted out?",
        asked_hours=THU + 3,
        expect=("No",),
        refuse=("Yes",),
    ),
)

LISTS: tuple[Story, ...] = (
    Story(
        name="what do I owe: mixed languages",
        chats={"hannah": dm("Hannah"), "lucia": dm("Lucia")},
        lines=(
            Line("hannah", MON + 1, None, "ich schicke dir die Fotos morgen"),
            Line("lucia", MON + 2, "Lucia", "me debes 20 euros de la cena jaja"),
            Line("lucia", MON + 2.1, None, "te los paso el viernes"),
        ),
        question="what do I owe people?",
        asked_hours=WED + 3,
        expect=("Hannah", "Lucia"),
    ),
    Story(
        name="who is waiting: answered ones left out",
        chats={"wren": dm("Wren"), "kenji": dm("Kenji")},
        lines=(
            Line("wren", MON + 1, None, "hey"),
            Line("kenji", MON + 1, None, "hey"),
            Line("wren", TUE + 2, "Wren", "are you free to help me move on sunday?"),
            Line("kenji", TUE + 2, "Kenji", "do you still have my drill?"),
            Line("kenji", TUE + 3, None, "yes it's in my car, I'll drop it off"),
        ),
        question="who's waiting on a reply from me?",
        asked_hours=WED + 3,
        expect=("Wren",),
        refuse=("Kenji asked",),
    ),
)

LISTS += (
    Story(
        name="what do I owe: the amount said in Portuguese before the promise",
        chats={"tomas": dm("Tomas")},
        lines=(
            Line("tomas", MON + 3, "Tomas", "paguei o estacionamento, 12 euros"),
            Line("tomas", MON + 3.2, None, "valeu! te passo amanhã"),
        ),
        question="what do I owe people?",
        asked_hours=THU + 3,
        expect=("Tomas", "12 euros"),
    ),
)

STORIES = ASKS + PROMISES + REQUESTS + LISTS


@pytest.mark.parametrize("story", STORIES, ids=[story.name for story in STORIES])
def test_loop_wording(maya, story):
    problems = story_failures(maya, story)
    assert not problems, "; ".join(problems)


# Written after the rules above, run once before any change to measure how they carry over.
AFTER = (
    Story(
        name="after: Portuguese ask kept by a file in another app",
        chats={"nuno": dm("Nuno"), "nuno-tg": dm("Nuno", platform="telegram")},
        lines=(
            Line("nuno", MON + 2, None, "e aí Nuno"),
            Line("nuno", MON + 3, "Nuno", "você pode me mandar o orçamento da pintura?"),
            Line("nuno", MON + 3.2, None, "claro, mando hoje à noite"),
            Line("nuno-tg", MON + 11, None, MEDIA),
        ),
        question="did I send Nuno the orçamento?",
        asked_hours=WED + 3,
        expect=("Yes",),
        refuse=("No",),
    ),
    Story(
        name="after: German promise still open on the list",
        chats={"ilse": dm("Ilse")},
        lines=(
            Line("ilse", MON + 2, "Ilse", "hast du noch die Fotos vom Konzert?"),
            Line("ilse", MON + 2.3, None, "ja! ich schicke dir die Fotos heute abend"),
        ),
        question="what do I still owe people?",
        asked_hours=THU + 3,
        expect=("Ilse",),
    ),
    Story(
        name="after: on it, then a link in reply to the ask",
        chats={"yusuf": dm("Yusuf", platform="slack")},
        lines=(
            Line(
                "yusuf",
                MON + 2,
                "Yusuf",
                "can you dig up the onboarding doc for Mirela?",
                message_id="doc-ask",
            ),
            Line("yusuf", MON + 2.1, None, "on it"),
            Line("yusuf", MON + 5, None, "https://wiki.example.com/onboarding", reply_to="doc-ask"),
        ),
        question="did I send Yusuf the onboarding doc?",
        asked_hours=WED + 3,
        expect=("Yes",),
        refuse=("No",),
    ),
    Story(
        name="after: Spanish request put off, still open",
        chats={"valeria": dm("Valeria")},
        lines=(
            Line("valeria", MON + 2, None, "¿me puedes mandar las fotos de la boda?"),
            Line("valeria", MON + 2.5, "Valeria", "sí, mañana te las paso"),
            Line("valeria", WED + 1, "Valeria", "qué calor hace hoy"),
        ),
        question="has Valeria sent the wedding fotos yet?",
        asked_hours=THU + 3,
        expect=("No",),
        refuse=("Yes",),
    ),
    Story(
        name="after: imperative ask in a group naming the user, answered in a DM",
        chats={"flat": group("Saoirse", "Tiago"), "saoirse": dm("Saoirse")},
        lines=(
            Line("flat", MON + 1, None, "morning all"),
            Line("flat", MON + 2, "Saoirse", "Maya pls pay the electricity bill before friday"),
            Line("saoirse", MON + 20, None, "paid the electricity bill just now"),
        ),
        question="did I pay the electricity bill?",
        asked_hours=WED + 3,
        expect=("Yes",),
        refuse=("No",),
    ),
    Story(
        name="after: who is waiting, French and English",
        chats={"mirela": dm("Mirela"), "joaquim": dm("Joaquim")},
        lines=(
            Line("mirela", MON + 1, None, "coucou"),
            Line("joaquim", MON + 1, None, "yo"),
            Line("mirela", TUE + 2, "Mirela", "est-ce que tu as reçu mon colis ?"),
            Line("joaquim", TUE + 3, "Joaquim", "would you mind checking the lease clause?"),
        ),
        question="who's waiting on a reply from me?",
        asked_hours=WED + 3,
        expect=("Mirela", "Joaquim"),
    ),
    Story(
        name="after: Italian request answered with ecco",
        chats={"tiago": dm("Tiago")},
        lines=(
            Line("tiago", MON + 2, None, "mi mandi il link della playlist per favore?"),
            Line("tiago", MON + 2.4, "Tiago", "dopo"),
            Line("tiago", TUE + 9, "Tiago", "ecco la playlist: https://music.example.com/p/77"),
        ),
        question="did Tiago ever send me the playlist?",
        asked_hours=WED + 3,
        expect=("Yes",),
        refuse=("No",),
    ),
    Story(
        name="after: promise to nobody kept in its own group by a file",
        chats={"hike": group("Tiago", "Nuno")},
        lines=(
            Line("hike", MON + 2, "Tiago", "who has the trail map?"),
            Line("hike", MON + 2.2, None, "I'll upload the trail map tonight"),
            Line("hike", MON + 9, None, MEDIA),
        ),
        question="did I upload the trail map?",
        asked_hours=WED + 3,
        expect=("Yes",),
        refuse=("No",),
    ),
)


@pytest.mark.parametrize("story", AFTER, ids=[story.name for story in AFTER])
def test_loop_wording_written_after(maya, story):
    problems = story_failures(maya, story)
    assert not problems, "; ".join(problems)
