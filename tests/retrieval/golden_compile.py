"""The golden compilation table: question -> compiled query, at a fixed time of asking.

Every case states the whole expected compilation (fields left at their defaults are expected
to be empty): intent, window, people (name as written, the contact-book people it resolves to,
descriptors), location, plan statuses, ranking, requested action, route and keywords. The
people come from ``tests.retrieval.people_book.CONTACTS``.

Defaults that follow from the intent, so that they are stated once: a plan question with no
status words asks about every plan status; the route is the routing table of
docs/RETRIEVAL.md (``ROUTE_OF_INTENT``).
"""

from __future__ import annotations

from dataclasses import dataclass

LISBON = "Europe/Lisbon"
NEW_YORK = "America/New_York"

# Times of asking. Lisbon is UTC+0 until 29 March 2026 and from 25 October 2026; New York moves
# to UTC-4 on 8 March 2026 and back to UTC-5 on 1 November 2026.
SATURDAY = "2026-03-14T10:00:00+00:00"
SUNDAY_EVENING = "2026-03-15T20:00:00+00:00"
MONDAY = "2026-03-16T09:00:00+00:00"
TUESDAY = "2026-03-17T09:00:00+00:00"
MONDAY_AFTER_SPRING_FORWARD = "2026-03-30T09:00:00+01:00"
MONDAY_AFTER_FALL_BACK = "2026-10-26T09:00:00+00:00"
NEW_YEARS_DAY = "2026-01-01T11:00:00+00:00"
FIRST_OF_MARCH = "2026-03-01T12:00:00+00:00"
NY_SATURDAY_BEFORE_SPRING_FORWARD = "2026-03-07T12:00:00-05:00"
NY_MONDAY_AFTER_SPRING_FORWARD = "2026-03-09T08:00:00-04:00"
NY_MONDAY_AFTER_FALL_BACK = "2026-11-02T08:00:00-05:00"
NY_SATURDAY = "2026-03-14T10:00:00-04:00"

ALL_PLAN_STATUSES = ("proposed", "confirmed", "changed", "cancelled")
ROUTE_OF_INTENT = {
    "catch_up": "recent_window",
    "unresolved": "unresolved",
    "people_ranking": "people_ranking",
    "identity_lookup": "hybrid",
    "plan_recall": "hybrid",
    "conversation_qa": "hybrid",
    "action_request": "hybrid",
}

BOTH_ANAS = ("Ana Lima", "Ana Souza")

Person = tuple[str | None, tuple[str, ...], tuple[str, ...]]


@dataclass(frozen=True)
class Golden:
    question: str
    intent: str
    now: str = SATURDAY
    tz: str = LISBON
    window: tuple[str, str] | None = None
    people: tuple[Person, ...] = ()
    location: tuple[str, str | None] | None = None
    plan_status: tuple[str, ...] | None = None
    ranking: tuple[str, int] | None = None
    action: str | None = None
    keywords: tuple[str, ...] = ()

    @property
    def expected_plan_status(self) -> tuple[str, ...]:
        if self.plan_status is not None:
            return self.plan_status
        return ALL_PLAN_STATUSES if self.intent == "plan_recall" else ()

    @property
    def expected_route(self) -> str:
        return ROUTE_OF_INTENT[self.intent]


def ana(descriptors: tuple[str, ...] = (), name: str = "Ana") -> Person:
    return (name, BOTH_ANAS, descriptors)


def one(name: str, display_name: str, descriptors: tuple[str, ...] = ()) -> Person:
    return (name, (display_name,), descriptors)


def unnamed(*descriptors: str) -> Person:
    return (None, (), descriptors)


YESTERDAY = ("2026-03-13T00:00:00+00:00", "2026-03-14T00:00:00+00:00")
FRIDAY_13 = YESTERDAY
TODAY = ("2026-03-14T00:00:00+00:00", "2026-03-15T00:00:00+00:00")
TOMORROW = ("2026-03-15T00:00:00+00:00", "2026-03-16T00:00:00+00:00")
LAST_WEEK = ("2026-03-02T00:00:00+00:00", "2026-03-09T00:00:00+00:00")
THIS_WEEK = ("2026-03-09T00:00:00+00:00", "2026-03-16T00:00:00+00:00")
NEXT_WEEK = ("2026-03-16T00:00:00+00:00", "2026-03-23T00:00:00+00:00")
LAST_WEEKEND = ("2026-03-07T00:00:00+00:00", "2026-03-09T00:00:00+00:00")
THIS_WEEKEND = ("2026-03-14T00:00:00+00:00", "2026-03-16T00:00:00+00:00")
LAST_FEW_DAYS = ("2026-03-11T00:00:00+00:00", SATURDAY)
SINCE_MONDAY = ("2026-03-09T00:00:00+00:00", SATURDAY)
MARCH_2026 = ("2026-03-01T00:00:00+00:00", "2026-04-01T00:00:00+01:00")
HOLIDAYS = ("2025-12-20T00:00:00+00:00", "2026-01-07T00:00:00+00:00")

GOLDEN: tuple[Golden, ...] = (
    # --- the demo corpus's questions (fixtures/demo_questions.py) ----------------------------
    Golden(
        "Who did I meet in Mexico City in March?",
        "identity_lookup",
        window=MARCH_2026,
        location=("Mexico City", "2026-03-01T00:00:00+00:00"),
        keywords=("mexico city",),
    ),
    Golden(
        "What's Ana's brother called?",
        "identity_lookup",
        people=(ana(), unnamed("brother")),
        keywords=("brother",),
    ),
    Golden(
        "Where does my sister live now?",
        "identity_lookup",
        people=(unnamed("sister"),),
        keywords=("sister", "live"),
    ),
    Golden(
        "Which colleague moved from Hamburg to Berlin?",
        "identity_lookup",
        people=(unnamed("colleague"),),
        location=("Berlin", SATURDAY),
        keywords=("colleague", "moved", "hamburg", "berlin"),
    ),
    Golden(
        "Who did I meet at the product meetup in Porto?",
        "identity_lookup",
        location=("Porto", None),
        keywords=("product", "meetup", "porto"),
    ),
    Golden("Where is Emma moving to?", "identity_lookup", keywords=("emma", "moving")),
    Golden(
        "Who signed me up for a half marathon?",
        "identity_lookup",
        keywords=("signed", "half", "marathon"),
    ),
    Golden("What's Jonas's new job?", "identity_lookup", keywords=("jonas", "job")),
    Golden(
        "What happened with the dinner at Taberna?",
        "plan_recall",
        keywords=("dinner", "taberna"),
    ),
    Golden(
        "What's the plan for Mum's birthday?",
        "plan_recall",
        people=(unnamed("mother"),),
        keywords=("mum", "birthday"),
    ),
    Golden("When are we going to Gerês?", "plan_recall", keywords=("gerês",)),
    Golden(
        "Who do I talk to the most?",
        "people_ranking",
        ranking=("most_messages", 12),
    ),
    Golden(
        "What did we decide about pricing?", "conversation_qa", keywords=("decision", "pricing")
    ),
    Golden("Who owns what for the launch?", "conversation_qa", keywords=("owns", "launch")),
    Golden(
        "Why did the launch date move, and to when?",
        "conversation_qa",
        keywords=("launch", "date", "move"),
    ),
    Golden("What does Prize Desk want?", "conversation_qa", keywords=("prize", "desk", "want")),
    Golden(
        "Draft a reply to Dmitri saying I'd love to meet for coffee when he's in Lisbon",
        "action_request",
        people=(one("Dmitri", "Dmitri Ivanov"),),
        location=("Lisbon", SATURDAY),
        action="draft_outreach",
        keywords=("love", "coffee", "lisbon"),
    ),
    Golden(
        "Send Priya the beta cohort numbers",
        "action_request",
        action="draft_outreach",
        keywords=("priya", "beta", "cohort", "numbers"),
    ),
    Golden("Catch me up on the last few days", "catch_up", window=LAST_FEW_DAYS),
    Golden("What did I miss here?", "catch_up", window=LAST_FEW_DAYS),
    Golden("What did I promise and not do?", "unresolved", keywords=("promise",)),
    Golden("Who hasn't got back to me?", "unresolved"),
    Golden(
        "When is my dentist appointment?",
        "plan_recall",
        keywords=("dentist", "appointment"),
    ),
    Golden(
        "What's the door code Jonas sent me?",
        "conversation_qa",
        keywords=("door", "code", "jonas"),
    ),
    Golden("What did Mark say about the IPO?", "conversation_qa", keywords=("mark", "ipo")),
    Golden(
        "Who was at the dinner on Friday?",
        "identity_lookup",
        window=FRIDAY_13,
        keywords=("dinner",),
    ),
    # --- the specification's representative questions -----------------------------------
    Golden(
        "Who was the Russian guy I met in Mexico City?",
        "identity_lookup",
        people=(unnamed("Russian"),),
        location=("Mexico City", None),
        keywords=("russian", "mexico city"),
    ),
    Golden(
        "What did we decide about dinner on Friday?",
        "plan_recall",
        window=FRIDAY_13,
        keywords=("decision", "dinner"),
    ),
    Golden(
        "What did we decide about dinner on Friday?",
        "plan_recall",
        now=TUESDAY,
        window=("2026-03-20T00:00:00+00:00", "2026-03-21T00:00:00+00:00"),
        keywords=("decision", "dinner"),
    ),
    Golden(
        "Who do I talk to most?",
        "people_ranking",
        ranking=("most_messages", 12),
    ),
    Golden("Catch me up", "catch_up", window=LAST_FEW_DAYS),
    Golden("What is unresolved?", "unresolved"),
    Golden(
        "Draft a message to Ana about the flat",
        "action_request",
        people=(ana(),),
        action="draft_outreach",
        keywords=("flat",),
    ),
    # --- traps: quoted words are text to find; a question's dates are relative to now ------
    Golden(
        'What did Ana mean by "see you yesterday"?',
        "conversation_qa",
        people=(ana(),),
        keywords=("see you yesterday",),
    ),
    Golden(
        "what did Ana say yesterday?",
        "conversation_qa",
        window=YESTERDAY,
        people=(ana(),),
    ),
    Golden(
        "Did Bruno say 'next Friday' or 'this Friday'?",
        "conversation_qa",
        people=(one("Bruno", "Bruno Costa"),),
        keywords=("next friday", "this friday"),
    ),
    Golden(
        'when Ana wrote "tomorrow" which day did she mean?',
        "conversation_qa",
        people=(ana(),),
        keywords=("tomorrow", "day"),
    ),
    Golden(
        'Find the message where Ana said "I was there yesterday"',
        "conversation_qa",
        people=(ana(),),
        keywords=("i was there yesterday",),
    ),
    Golden(
        "What did João say about the trip to Lisbon last week?",
        "conversation_qa",
        window=LAST_WEEK,
        people=(one("João", "João Pereira"),),
        location=("Lisbon", "2026-03-02T00:00:00+00:00"),
        keywords=("trip", "lisbon"),
    ),
    # --- identity lookups -------------------------------------------------------------------
    Golden(
        "Who was the Brazilian designer from the wedding?",
        "identity_lookup",
        people=(unnamed("Brazilian", "designer"),),
        keywords=("brazilian", "designer", "wedding"),
    ),
    Golden(
        "who is the dentist Sofia recommended",
        "identity_lookup",
        people=(one("Sofia", "Sofia Rossi"), unnamed("dentist")),
        keywords=("dentist", "recommended"),
    ),
    Golden(
        "What's the name of the Italian chef Mei introduced me to?",
        "identity_lookup",
        people=(one("Mei", "Mei Chen"), unnamed("Italian", "chef")),
        keywords=("italian", "chef", "introduced"),
    ),
    Golden("Who is Ana?", "identity_lookup", people=(ana(),)),
    Golden(
        "who was that Russian woman in Berlin",
        "identity_lookup",
        people=(unnamed("Russian"),),
        location=("Berlin", None),
        keywords=("russian", "berlin"),
    ),
    Golden(
        "remind me who the lawyer was",
        "identity_lookup",
        people=(unnamed("lawyer"),),
        keywords=("lawyer",),
    ),
    Golden(
        "Who did I meet in Lisbon last summer?",
        "identity_lookup",
        window=("2025-06-01T00:00:00+01:00", "2025-09-01T00:00:00+01:00"),
        location=("Lisbon", "2025-06-01T00:00:00+01:00"),
        keywords=("lisbon",),
    ),
    Golden(
        "what was her name, the Argentinian architect?",
        "identity_lookup",
        people=(unnamed("Argentinian", "architect"),),
        keywords=("argentinian", "architect"),
    ),
    Golden(
        "Who's the guy from São Paulo Bruno mentioned?",
        "identity_lookup",
        people=(one("Bruno", "Bruno Costa"),),
        location=("São Paulo", SATURDAY),
        keywords=("são paulo",),
    ),
    Golden(
        "who was the woman from Buenos Aires I met last year",
        "identity_lookup",
        window=("2025-01-01T00:00:00+00:00", "2026-01-01T00:00:00+00:00"),
        location=("Buenos Aires", "2025-01-01T00:00:00+00:00"),
        keywords=("buenos aires",),
    ),
    Golden(
        "I forgot the name of the Ukrainian translator",
        "identity_lookup",
        people=(unnamed("Ukrainian", "translator"),),
        keywords=("ukrainian", "translator"),
    ),
    Golden(
        "who is Dmitri",
        "identity_lookup",
        people=(one("Dmitri", "Dmitri Ivanov"),),
    ),
    # --- plan recall ------------------------------------------------------------------------
    Golden(
        "When is dinner with Bruno?",
        "plan_recall",
        people=(one("Bruno", "Bruno Costa"),),
        keywords=("dinner",),
    ),
    Golden("Are we still on for Saturday?", "plan_recall", window=TODAY),
    Golden(
        "What did we plan for next weekend?",
        "plan_recall",
        window=("2026-03-21T00:00:00+00:00", "2026-03-23T00:00:00+00:00"),
    ),
    Golden(
        "Was the dinner with Ana cancelled?",
        "plan_recall",
        people=(ana(),),
        plan_status=("cancelled",),
        keywords=("dinner", "cancelled"),
    ),
    Golden(
        "Did we move the meeting to Thursday?",
        "plan_recall",
        now=MONDAY,
        window=("2026-03-19T00:00:00+00:00", "2026-03-20T00:00:00+00:00"),
        plan_status=("changed",),
        keywords=("move", "meeting"),
    ),
    Golden("what time is lunch tomorrow", "plan_recall", window=TOMORROW, keywords=("lunch",)),
    Golden(
        "Where are we meeting Sofia on Sunday?",
        "plan_recall",
        window=TOMORROW,
        people=(one("Sofia", "Sofia Rossi"),),
        keywords=("meeting",),
    ),
    Golden(
        "What's the plan for Mom's birthday?",
        "plan_recall",
        people=(one("Mom", "Mom", ("mother",)),),
        keywords=("birthday",),
    ),
    Golden(
        "Did they cancel the trip to Porto?",
        "plan_recall",
        location=("Porto", None),
        plan_status=("cancelled",),
        keywords=("cancel", "trip", "porto"),
    ),
    Golden(
        "is the barbecue still happening this weekend",
        "plan_recall",
        window=THIS_WEEKEND,
        keywords=("barbecue",),
    ),
    Golden(
        "What did Ana and I agree on for the flat deposit?",
        "conversation_qa",
        people=(ana(),),
        keywords=("flat", "deposit"),
    ),
    Golden("when is the party in March", "plan_recall", window=MARCH_2026, keywords=("party",)),
    Golden(
        "Were the concert tickets for June confirmed?",
        "plan_recall",
        window=("2026-06-01T00:00:00+01:00", "2026-07-01T00:00:00+01:00"),
        plan_status=("confirmed",),
        keywords=("concert", "tickets", "confirmed"),
    ),
    Golden(
        "what did we book for the trip to Madrid",
        "plan_recall",
        location=("Madrid", None),
        keywords=("book", "trip", "madrid"),
    ),
    Golden(
        "Is the dinner on the 20th still on?",
        "plan_recall",
        window=("2026-03-20T00:00:00+00:00", "2026-03-21T00:00:00+00:00"),
        keywords=("dinner",),
    ),
    Golden(
        "What did we decide about the Lisbon flat?",
        "conversation_qa",
        keywords=("decision", "lisbon", "flat"),
    ),
    Golden(
        "when are we seeing Will",
        "plan_recall",
        people=(one("Will", "Will Turner"),),
        keywords=("seeing",),
    ),
    Golden(
        "Was lunch with Bruno moved to next week?",
        "plan_recall",
        window=NEXT_WEEK,
        people=(one("Bruno", "Bruno Costa"),),
        plan_status=("changed",),
        keywords=("lunch", "moved"),
    ),
    Golden(
        "What was decided about the wedding venue?",
        "plan_recall",
        keywords=("decision", "wedding", "venue"),
    ),
    Golden(
        "What time is brunch on Sunday?",
        "plan_recall",
        now=NY_SATURDAY_BEFORE_SPRING_FORWARD,
        tz=NEW_YORK,
        window=("2026-03-08T00:00:00-05:00", "2026-03-09T00:00:00-04:00"),
        keywords=("brunch",),
    ),
    Golden(
        "When is the flight to Tokyo?",
        "plan_recall",
        location=("Tokyo", SATURDAY),
        keywords=("flight", "tokyo"),
    ),
    Golden(
        "did Sofia suggest a restaurant for Friday",
        "conversation_qa",
        window=FRIDAY_13,
        people=(one("Sofia", "Sofia Rossi"),),
        keywords=("suggest", "restaurant"),
    ),
    Golden(
        "What did we agree with Mei about the proposal?",
        "conversation_qa",
        people=(one("Mei", "Mei Chen"),),
        keywords=("proposal",),
    ),
    Golden(
        "What did we agree with Mei about the dinner?",
        "plan_recall",
        people=(one("Mei", "Mei Chen"),),
        keywords=("dinner",),
    ),
    Golden(
        "Has the trip been proposed or confirmed?",
        "plan_recall",
        plan_status=("proposed", "confirmed"),
        keywords=("trip", "proposed", "confirmed"),
    ),
    Golden(
        "when was the dinner at Bruno's",
        "plan_recall",
        people=(one("Bruno", "Bruno Costa"),),
        keywords=("dinner",),
    ),
    Golden(
        "Was the trip postponed or cancelled?",
        "plan_recall",
        plan_status=("changed", "cancelled"),
        keywords=("trip", "postponed", "cancelled"),
    ),
    # --- questions about conversations -----------------------------------------------------
    Golden(
        "What did Bruno say about the lease last week?",
        "conversation_qa",
        window=LAST_WEEK,
        people=(one("Bruno", "Bruno Costa"),),
        keywords=("lease",),
    ),
    Golden(
        "what did mei@example.com send me in March 2025",
        "conversation_qa",
        window=("2025-03-01T00:00:00+00:00", "2025-04-01T00:00:00+01:00"),
        people=(one("mei@example.com", "Mei Chen"),),
    ),
    Golden(
        "What did @dima say about the visa?",
        "conversation_qa",
        people=(one("@dima", "Dmitri Ivanov"),),
        keywords=("visa",),
    ),
    Golden(
        "Anything from +351 910 000 001 this morning?",
        "conversation_qa",
        window=("2026-03-14T05:00:00+00:00", "2026-03-14T12:00:00+00:00"),
        people=(one("+351 910 000 001", "Ana Souza"),),
    ),
    Golden(
        "What did @nobody_here say?",
        "conversation_qa",
        keywords=("nobody_here",),
    ),
    Golden(
        "what did ana souza say about the lease",
        "conversation_qa",
        people=(one("ana souza", "Ana Souza"),),
        keywords=("lease",),
    ),
    Golden(
        "What did Will say about the boat?",
        "conversation_qa",
        people=(one("Will", "Will Turner"),),
        keywords=("boat",),
    ),
    Golden(
        "when will the plumber come",
        "plan_recall",
        people=(unnamed("plumber"),),
        keywords=("plumber", "come"),
    ),
    Golden(
        "What did my sister say about Mom?",
        "conversation_qa",
        people=(one("Mom", "Mom", ("mother",)), unnamed("sister")),
        keywords=("sister",),
    ),
    Golden(
        "what did my sister Ana say",
        "conversation_qa",
        people=(ana(("sister",)),),
        keywords=("sister",),
    ),
    Golden("What did Lucas say?", "conversation_qa", people=(one("Lucas", "Lucas"),)),
    Golden("what did dima say", "conversation_qa", people=(one("dima", "Dmitri Ivanov"),)),
    Golden(
        "what did lucas m say about rent",
        "conversation_qa",
        # The initial is part of the name ("lucas m" is how the contact is saved).
        people=(one("lucas m", "Lucas"),),
        keywords=("rent",),
    ),
    Golden(
        "What did Rui say about the boat?",
        "conversation_qa",
        keywords=("rui", "boat"),
    ),
    Golden(
        "what did Ana Lima say about the keys",
        "conversation_qa",
        people=(one("Ana Lima", "Ana Lima"),),
        keywords=("keys",),
    ),
    # A verbless fragment asks what "What is Ana's address?" asks (retrieval.question_forms).
    Golden("Ana's address?", "identity_lookup", people=(ana(),), keywords=("address",)),
    Golden(
        "What did João say about the lease?",
        "conversation_qa",
        people=(one("João", "João Pereira"),),
        keywords=("lease",),
    ),
    Golden("what did joao say", "conversation_qa", people=(one("joao", "João Pereira"),)),
    Golden(
        "What did Ana say about the Airbnb in Porto last weekend?",
        "conversation_qa",
        window=LAST_WEEKEND,
        people=(ana(),),
        location=("Porto", "2026-03-07T00:00:00+00:00"),
        keywords=("airbnb", "porto"),
    ),
    Golden(
        "what did Bruno say about the game on saturday night",
        "conversation_qa",
        window=("2026-03-14T18:00:00+00:00", "2026-03-15T05:00:00+00:00"),
        people=(one("Bruno", "Bruno Costa"),),
        keywords=("game",),
    ),
    Golden(
        "Show me messages about the boat from two weeks ago",
        "conversation_qa",
        window=("2026-02-23T00:00:00+00:00", "2026-03-02T00:00:00+00:00"),
        keywords=("boat",),
    ),
    Golden(
        "what did ana say 3 days ago",
        "conversation_qa",
        window=("2026-03-11T00:00:00+00:00", "2026-03-12T00:00:00+00:00"),
        people=(ana(name="ana"),),
    ),
    Golden(
        "What did Bruno send on 3/14?",
        "conversation_qa",
        window=TODAY,
        people=(one("Bruno", "Bruno Costa"),),
    ),
    Golden(
        "What did Bruno send on 4/3?",
        "conversation_qa",
        window=("2026-03-04T00:00:00+00:00", "2026-03-05T00:00:00+00:00"),
        people=(one("Bruno", "Bruno Costa"),),
    ),
    Golden(
        "What did Bruno send on 4/3?",
        "conversation_qa",
        now=NY_SATURDAY,
        tz=NEW_YORK,
        window=("2025-04-03T00:00:00-04:00", "2025-04-04T00:00:00-04:00"),
        people=(one("Bruno", "Bruno Costa"),),
    ),
    Golden(
        "What did Ana say on 2025-12-24?",
        "conversation_qa",
        window=("2025-12-24T00:00:00+00:00", "2025-12-25T00:00:00+00:00"),
        people=(ana(),),
    ),
    Golden(
        "what did Sofia say between March 1 and March 5",
        "conversation_qa",
        window=("2026-03-01T00:00:00+00:00", "2026-03-06T00:00:00+00:00"),
        people=(one("Sofia", "Sofia Rossi"),),
    ),
    Golden(
        "What did Ana say since Monday?",
        "conversation_qa",
        window=SINCE_MONDAY,
        people=(ana(),),
    ),
    Golden(
        "What has Mei been saying over the holidays?",
        "conversation_qa",
        window=HOLIDAYS,
        people=(one("Mei", "Mei Chen"),),
    ),
    Golden(
        "What did Bruno say in the last 24 hours?",
        "conversation_qa",
        window=("2026-03-13T10:00:00+00:00", SATURDAY),
        people=(one("Bruno", "Bruno Costa"),),
    ),
    Golden(
        "what did Ana say yesterday",
        "conversation_qa",
        now=MONDAY_AFTER_SPRING_FORWARD,
        window=("2026-03-29T00:00:00+00:00", "2026-03-30T00:00:00+01:00"),
        people=(ana(),),
    ),
    Golden(
        "what did Ana say yesterday",
        "conversation_qa",
        now=MONDAY_AFTER_FALL_BACK,
        window=("2026-10-25T00:00:00+01:00", "2026-10-26T00:00:00+00:00"),
        people=(ana(),),
    ),
    Golden(
        "what did Bruno say yesterday",
        "conversation_qa",
        now=NY_MONDAY_AFTER_SPRING_FORWARD,
        tz=NEW_YORK,
        window=("2026-03-08T00:00:00-05:00", "2026-03-09T00:00:00-04:00"),
        people=(one("Bruno", "Bruno Costa"),),
    ),
    Golden(
        "what did Bruno say yesterday",
        "conversation_qa",
        now=NY_MONDAY_AFTER_FALL_BACK,
        tz=NEW_YORK,
        window=("2026-11-01T00:00:00-04:00", "2026-11-02T00:00:00-05:00"),
        people=(one("Bruno", "Bruno Costa"),),
    ),
    Golden(
        "What did Ana say last month?",
        "conversation_qa",
        now=NEW_YEARS_DAY,
        window=("2025-12-01T00:00:00+00:00", "2026-01-01T00:00:00+00:00"),
        people=(ana(),),
    ),
    Golden(
        "What did Ana say last year?",
        "conversation_qa",
        now=NEW_YEARS_DAY,
        window=("2025-01-01T00:00:00+00:00", "2026-01-01T00:00:00+00:00"),
        people=(ana(),),
    ),
    Golden(
        "What did Ana say last week?",
        "conversation_qa",
        now=NEW_YEARS_DAY,
        window=("2025-12-22T00:00:00+00:00", "2025-12-29T00:00:00+00:00"),
        people=(ana(),),
    ),
    Golden(
        "What did Ana say yesterday?",
        "conversation_qa",
        now=NEW_YEARS_DAY,
        window=("2025-12-31T00:00:00+00:00", "2026-01-01T00:00:00+00:00"),
        people=(ana(),),
    ),
    Golden(
        "what did Bruno say last month",
        "conversation_qa",
        now=FIRST_OF_MARCH,
        window=("2026-02-01T00:00:00+00:00", "2026-03-01T00:00:00+00:00"),
        people=(one("Bruno", "Bruno Costa"),),
    ),
    Golden(
        "What did the Russian say about the visa?",
        "conversation_qa",
        people=(unnamed("Russian"),),
        keywords=("russian", "visa"),
    ),
    Golden(
        # Whether someone replied to the user is a question about open loops.
        "Did the Brazilians reply?",
        "unresolved",
        people=(unnamed("Brazilian"),),
        keywords=("brazilians",),
    ),
    Golden("what did we talk about in Russian", "conversation_qa", keywords=("russian",)),
    Golden(
        "where was the Italian restaurant Ana recommended",
        "conversation_qa",
        people=(ana(),),
        keywords=("italian", "restaurant", "recommended"),
    ),
    Golden(
        "what did Sofia say this past weekend",
        "conversation_qa",
        window=LAST_WEEKEND,
        people=(one("Sofia", "Sofia Rossi"),),
    ),
    Golden(
        "what did the landlord say about the deposit",
        "conversation_qa",
        people=(unnamed("landlord"),),
        keywords=("landlord", "deposit"),
    ),
    Golden(
        "Where did Bruno say he was staying in Paris?",
        "conversation_qa",
        people=(one("Bruno", "Bruno Costa"),),
        location=("Paris", None),
        keywords=("staying", "paris"),
    ),
    Golden(
        "What's Ana's new address in Berlin?",
        "identity_lookup",
        people=(ana(),),
        location=("Berlin", SATURDAY),
        keywords=("address", "berlin"),
    ),
    Golden(
        "who lives in Lisbon",
        "conversation_qa",
        location=("Lisbon", SATURDAY),
        keywords=("lives", "lisbon"),
    ),
    Golden(
        "What did Ana say about Mexico City?",
        "conversation_qa",
        people=(ana(),),
        keywords=("mexico", "city"),
    ),
    Golden(
        "what did Ana say at Christmas",
        "conversation_qa",
        window=("2025-12-25T00:00:00+00:00", "2025-12-26T00:00:00+00:00"),
        people=(ana(),),
    ),
    Golden(
        "what did the Kenyan photographer say in Nairobi in 2025?",
        "conversation_qa",
        window=("2025-01-01T00:00:00+00:00", "2026-01-01T00:00:00+00:00"),
        people=(unnamed("Kenyan", "photographer"),),
        location=("Nairobi", "2025-01-01T00:00:00+00:00"),
        keywords=("kenyan", "photographer", "nairobi"),
    ),
    Golden(
        "what did Bruno say on the 20th",
        "conversation_qa",
        window=("2026-02-20T00:00:00+00:00", "2026-02-21T00:00:00+00:00"),
        people=(one("Bruno", "Bruno Costa"),),
    ),
    Golden(
        "What did Ana say a few days ago about the car?",
        "conversation_qa",
        window=("2026-03-09T00:00:00+00:00", "2026-03-13T00:00:00+00:00"),
        people=(ana(),),
        keywords=("car",),
    ),
    Golden(
        "What did João say the day before yesterday?",
        "conversation_qa",
        window=("2026-03-12T00:00:00+00:00", "2026-03-13T00:00:00+00:00"),
        people=(one("João", "João Pereira"),),
    ),
    Golden(
        "what did Bruno say about Friday's match",
        "conversation_qa",
        window=FRIDAY_13,
        people=(one("Bruno", "Bruno Costa"),),
        keywords=("match",),
    ),
    Golden(
        "what did Bruno text me tonight",
        "conversation_qa",
        window=("2026-03-14T18:00:00+00:00", "2026-03-15T05:00:00+00:00"),
        people=(one("Bruno", "Bruno Costa"),),
    ),
    Golden(
        "what did Mom say on New Year's Eve",
        "conversation_qa",
        window=("2025-12-31T00:00:00+00:00", "2026-01-01T00:00:00+00:00"),
        people=(one("Mom", "Mom", ("mother",)),),
    ),
    Golden(
        "what did Ana say on Valentine's Day",
        "conversation_qa",
        window=("2026-02-14T00:00:00+00:00", "2026-02-15T00:00:00+00:00"),
        people=(ana(),),
    ),
    Golden(
        "What did Will say last Sunday?",
        "conversation_qa",
        now=SUNDAY_EVENING,
        window=("2026-03-08T00:00:00+00:00", "2026-03-09T00:00:00+00:00"),
        people=(one("Will", "Will Turner"),),
    ),
    Golden(
        "What did Will say this Monday?",
        "conversation_qa",
        now=SUNDAY_EVENING,
        window=("2026-03-09T00:00:00+00:00", "2026-03-10T00:00:00+00:00"),
        people=(one("Will", "Will Turner"),),
    ),
    Golden(
        "what did Bruno say earlier this week",
        "conversation_qa",
        now=MONDAY,
        window=("2026-03-16T00:00:00+00:00", MONDAY),
        people=(one("Bruno", "Bruno Costa"),),
    ),
    Golden(
        "What did Ana send this month?",
        "conversation_qa",
        now=FIRST_OF_MARCH,
        window=MARCH_2026,
        people=(ana(),),
    ),
    Golden(
        "what did Bruno say 2 weeks ago on whatsapp",
        "conversation_qa",
        window=("2026-02-23T00:00:00+00:00", "2026-03-02T00:00:00+00:00"),
        people=(one("Bruno", "Bruno Costa"),),
        keywords=("whatsapp",),
    ),
    Golden(
        "what did Sofia say 10 days ago",
        "conversation_qa",
        window=("2026-03-04T00:00:00+00:00", "2026-03-05T00:00:00+00:00"),
        people=(one("Sofia", "Sofia Rossi"),),
    ),
    Golden(
        "What did Ana say on Friday?",
        "conversation_qa",
        now=MONDAY,
        window=FRIDAY_13,
        people=(ana(),),
    ),
    Golden(
        "What did Mei say on 14.03.2025?",
        "conversation_qa",
        window=("2025-03-14T00:00:00+00:00", "2025-03-15T00:00:00+00:00"),
        people=(one("Mei", "Mei Chen"),),
    ),
    Golden(
        "What did Ana say last Friday night?",
        "conversation_qa",
        window=("2026-03-13T18:00:00+00:00", "2026-03-14T05:00:00+00:00"),
        people=(ana(),),
    ),
    Golden(
        "What did Ana say the other day about Bruno?",
        "conversation_qa",
        window=("2026-03-07T00:00:00+00:00", "2026-03-14T00:00:00+00:00"),
        people=(ana(), one("Bruno", "Bruno Costa")),
    ),
    Golden(
        "Did Ana or Bruno mention the deposit?",
        "conversation_qa",
        people=(ana(), one("Bruno", "Bruno Costa")),
        keywords=("deposit",),
    ),
    Golden(
        "What did Ana Souza and Mei say about the party on the weekend?",
        "conversation_qa",
        window=THIS_WEEKEND,
        people=(one("Ana Souza", "Ana Souza"), one("Mei", "Mei Chen")),
        keywords=("party",),
    ),
    Golden(
        "what did Will and Sofia say about the photos",
        "conversation_qa",
        people=(one("Will", "Will Turner"), one("Sofia", "Sofia Rossi")),
        keywords=("photos",),
    ),
    Golden(
        "what will Sofia bring",
        "conversation_qa",
        people=(one("Sofia", "Sofia Rossi"),),
        keywords=("bring",),
    ),
    Golden("What did May say?", "conversation_qa"),
    Golden(
        "What did Ana say about Ana's sister?",
        "conversation_qa",
        people=(ana(), unnamed("sister")),
        keywords=("sister",),
    ),
    Golden(
        "What did Ana say in New York?",
        "conversation_qa",
        people=(ana(),),
        location=("New York", None),
        keywords=("new york",),
    ),
    Golden(
        "what did bruno say in sao paulo",
        "conversation_qa",
        people=(one("bruno", "Bruno Costa"),),
        location=("São Paulo", None),
        keywords=("sao paulo",),
    ),
    Golden("How was the hike in Sintra?", "conversation_qa", keywords=("hike", "sintra")),
    Golden(
        "What did the French couple say about Paris in the spring?",
        "conversation_qa",
        window=("2026-03-01T00:00:00+00:00", "2026-06-01T00:00:00+01:00"),
        people=(unnamed("French"),),
        keywords=("french", "couple", "paris"),
    ),
    Golden(
        "What did the Russian guy in Mexico City say last month?",
        "conversation_qa",
        window=("2026-02-01T00:00:00+00:00", "2026-03-01T00:00:00+00:00"),
        people=(unnamed("Russian"),),
        location=("Mexico City", "2026-02-01T00:00:00+00:00"),
        keywords=("russian", "mexico city"),
    ),
    Golden(
        "remind me what Ana said about the keys",
        "conversation_qa",
        people=(ana(),),
        keywords=("keys",),
    ),
    Golden(
        "Tell me about Bruno's trip",
        "conversation_qa",
        people=(one("Bruno", "Bruno Costa"),),
        keywords=("trip",),
    ),
    Golden(
        "what did Bruno say last weekend",
        "conversation_qa",
        now=NY_MONDAY_AFTER_SPRING_FORWARD,
        tz=NEW_YORK,
        window=("2026-03-07T00:00:00-05:00", "2026-03-09T00:00:00-04:00"),
        people=(one("Bruno", "Bruno Costa"),),
    ),
    Golden(
        "what did Bruno say this morning",
        "conversation_qa",
        now=NY_MONDAY_AFTER_SPRING_FORWARD,
        tz=NEW_YORK,
        window=("2026-03-09T05:00:00-04:00", "2026-03-09T12:00:00-04:00"),
        people=(one("Bruno", "Bruno Costa"),),
    ),
    Golden(
        "What did Ana say since Sunday?",
        "conversation_qa",
        now=NY_MONDAY_AFTER_SPRING_FORWARD,
        tz=NEW_YORK,
        window=("2026-03-08T00:00:00-05:00", NY_MONDAY_AFTER_SPRING_FORWARD),
        people=(ana(),),
    ),
    Golden(
        "what did Ana say last night",
        "conversation_qa",
        now=MONDAY_AFTER_FALL_BACK,
        window=("2026-10-25T18:00:00+00:00", "2026-10-26T05:00:00+00:00"),
        people=(ana(),),
    ),
    Golden(
        "what did Ana say over the weekend",
        "conversation_qa",
        now=MONDAY_AFTER_FALL_BACK,
        window=("2026-10-24T00:00:00+01:00", "2026-10-26T00:00:00+00:00"),
        people=(ana(),),
    ),
    Golden(
        "What did Ana say about Friday?",
        "conversation_qa",
        window=FRIDAY_13,
        people=(ana(),),
    ),
    Golden(
        "Where is the spare key?",
        "conversation_qa",
        keywords=("spare", "key"),
    ),
    Golden(
        "How much was the deposit for the flat in Porto?",
        "conversation_qa",
        location=("Porto", None),
        keywords=("deposit", "flat", "porto"),
    ),
    Golden(
        "what did my boss say about the offsite in April",
        "conversation_qa",
        window=("2025-04-01T00:00:00+01:00", "2025-05-01T00:00:00+01:00"),
        people=(unnamed("boss"),),
        keywords=("boss", "offsite"),
    ),
    Golden(
        "What did my colleague Mei say about the launch?",
        "conversation_qa",
        people=(one("Mei", "Mei Chen", ("colleague",)),),
        keywords=("colleague", "launch"),
    ),
    # --- catch-up ---------------------------------------------------------------------------
    Golden(
        "Catch me up",
        "catch_up",
        now=MONDAY,
        window=("2026-03-13T00:00:00+00:00", MONDAY),
    ),
    Golden("What did I miss yesterday?", "catch_up", window=YESTERDAY),
    Golden(
        "catch me up on the Lisbon trip chat",
        "catch_up",
        window=LAST_FEW_DAYS,
        keywords=("lisbon", "trip"),
    ),
    Golden("summarize the last few days", "catch_up", window=LAST_FEW_DAYS),
    Golden(
        "what's new with Bruno this week",
        "catch_up",
        window=THIS_WEEK,
        people=(one("Bruno", "Bruno Costa"),),
    ),
    Golden(
        "Fill me in on what happened over the weekend",
        "catch_up",
        window=THIS_WEEKEND,
    ),
    Golden(
        "any updates from Ana since Monday?",
        "catch_up",
        window=SINCE_MONDAY,
        people=(ana(),),
    ),
    Golden(
        "What have I missed since Friday night?",
        "catch_up",
        window=("2026-03-13T18:00:00+00:00", SATURDAY),
    ),
    Golden(
        "Catch me up",
        "catch_up",
        now=NY_MONDAY_AFTER_SPRING_FORWARD,
        tz=NEW_YORK,
        window=("2026-03-06T00:00:00-05:00", NY_MONDAY_AFTER_SPRING_FORWARD),
    ),
    Golden("recap of the group chat today", "catch_up", window=TODAY, keywords=("group",)),
    Golden(
        "what did I miss in the family group",
        "catch_up",
        window=LAST_FEW_DAYS,
        keywords=("family", "group"),
    ),
    Golden(
        "What happened yesterday?",
        "catch_up",
        window=YESTERDAY,
    ),
    # --- unresolved -------------------------------------------------------------------------
    Golden("What haven't I replied to?", "unresolved"),
    Golden("who is waiting on me", "unresolved"),
    Golden(
        "Which messages from Bruno have I not answered?",
        "unresolved",
        people=(one("Bruno", "Bruno Costa"),),
    ),
    Golden("any open loops with Sofia?", "unresolved", people=(one("Sofia", "Sofia Rossi"),)),
    Golden("what do I still owe Ana a reply on", "unresolved", people=(ana(),)),
    Golden("What's still pending from last week?", "unresolved", window=LAST_WEEK),
    Golden("did I forget to reply to Mei?", "unresolved", people=(one("Mei", "Mei Chen"),)),
    Golden("who am I waiting on", "unresolved"),
    Golden(
        "what is unresolved with the landlord",
        "unresolved",
        people=(unnamed("landlord"),),
        keywords=("landlord",),
    ),
    Golden("loose ends from the trip", "unresolved", keywords=("trip",)),
    Golden("Who haven't I responded to this week?", "unresolved", window=THIS_WEEK),
    # --- people ranking ---------------------------------------------------------------------
    Golden(
        "who did I text the most this week",
        "people_ranking",
        window=THIS_WEEK,
        ranking=("most_messages", 12),
    ),
    Golden("Who are my closest friends?", "people_ranking", ranking=("relationship_strength", 12)),
    Golden("my top 5 closest friends", "people_ranking", ranking=("relationship_strength", 5)),
    Golden("who have I been neglecting?", "people_ranking", ranking=("neglected", 12)),
    Golden("Who haven't I talked to in a while?", "people_ranking", ranking=("neglected", 12)),
    Golden("who is my best friend", "people_ranking", ranking=("relationship_strength", 1)),
    Golden("rank my contacts", "people_ranking", ranking=("relationship_strength", 12)),
    Golden(
        "rank the cycling club ppl by how much they post",
        "people_ranking",
        ranking=("most_messages", 12),
        keywords=("cycling", "club", "post"),
    ),
    Golden(
        "sort everyone in the choir by how often they text",
        "people_ranking",
        ranking=("most_messages", 12),
        keywords=("choir",),
    ),
    Golden(
        "order the pizzas by how much they cost",
        "conversation_qa",
        keywords=("order", "pizzas", "cost"),
    ),
    Golden("who have I lost touch with", "people_ranking", ranking=("neglected", 12)),
    Golden(
        "top three people I message",
        "people_ranking",
        ranking=("relationship_strength", 3),
    ),
    Golden("who messages me the most", "people_ranking", ranking=("most_messages", 12)),
    Golden(
        "Who did I talk to most last month?",
        "people_ranking",
        window=("2026-02-01T00:00:00+00:00", "2026-03-01T00:00:00+00:00"),
        ranking=("most_messages", 12),
    ),
    # --- requested actions ------------------------------------------------------------------
    Golden(
        "Remind me to call João tomorrow",
        "action_request",
        window=TOMORROW,
        people=(one("João", "João Pereira"),),
        action="create_reminder",
        keywords=("call",),
    ),
    Golden(
        "Invite Bruno to dinner on Friday",
        "action_request",
        window=("2026-03-20T00:00:00+00:00", "2026-03-21T00:00:00+00:00"),
        people=(one("Bruno", "Bruno Costa"),),
        action="send_invite",
        keywords=("dinner",),
    ),
    Golden(
        "Reply to Mei about the invoice",
        "action_request",
        people=(one("Mei", "Mei Chen"),),
        action="draft_outreach",
        keywords=("invoice",),
    ),
    Golden(
        "Can you text Sofia that I'm running late?",
        "action_request",
        people=(one("Sofia", "Sofia Rossi"),),
        action="draft_outreach",
        keywords=("running", "late"),
    ),
    Golden(
        "Please write a thank-you note to Mom",
        "action_request",
        people=(one("Mom", "Mom", ("mother",)),),
        action="draft_outreach",
        keywords=("thank-you", "note"),
    ),
    Golden(
        "Schedule a call with Bruno next week",
        "action_request",
        window=NEXT_WEEK,
        people=(one("Bruno", "Bruno Costa"),),
        action="schedule_event",
        keywords=("call",),
    ),
    Golden(
        "Send Dmitri a message about the visa",
        "action_request",
        people=(one("Dmitri", "Dmitri Ivanov"),),
        action="draft_outreach",
        keywords=("visa",),
    ),
    Golden("help me reply to Ana", "action_request", people=(ana(),), action="draft_outreach"),
    Golden(
        "ask Bruno if he's free on Saturday",
        "action_request",
        window=TODAY,
        people=(one("Bruno", "Bruno Costa"),),
        action="draft_outreach",
        keywords=("free",),
    ),
    Golden(
        "remind me about the dentist on Monday",
        "action_request",
        window=("2026-03-16T00:00:00+00:00", "2026-03-17T00:00:00+00:00"),
        people=(unnamed("dentist"),),
        action="create_reminder",
        keywords=("dentist",),
    ),
    Golden(
        "Add the wedding to my calendar",
        "action_request",
        action="schedule_event",
        keywords=("wedding",),
    ),
    Golden(
        "Could you draft a reply to the landlord?",
        "action_request",
        people=(unnamed("landlord"),),
        action="draft_outreach",
        keywords=("landlord",),
    ),
    Golden(
        "Send a message to Will saying happy birthday",
        "action_request",
        people=(one("Will", "Will Turner"),),
        action="draft_outreach",
        keywords=("happy", "birthday"),
    ),
    Golden(
        "draft an email to mei@example.com about the contract",
        "action_request",
        people=(one("mei@example.com", "Mei Chen"),),
        action="draft_outreach",
        keywords=("contract",),
    ),
    Golden(
        "Book a table for Friday night",
        "action_request",
        window=("2026-03-20T18:00:00+00:00", "2026-03-21T05:00:00+00:00"),
        action="schedule_event",
        keywords=("book", "table"),
    ),
    Golden(
        "Text Ana that I'll be there in March",
        "action_request",
        window=MARCH_2026,
        people=(ana(),),
        action="draft_outreach",
    ),
)
