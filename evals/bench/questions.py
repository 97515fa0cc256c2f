"""Varied bench questions over the corpus vocabulary: topics, people, places, phrases, time
windows, recent-window and no-match questions, in the shapes people ask them."""

from __future__ import annotations

import random

from evals.bench.corpus import ACTIVITIES, FIRST_NAMES, FOODS, PLACES, THINGS

QUESTION_TEMPLATES = (
    "What did {name} say about the {thing}?",
    "When are we having {food}?",
    "Where did {name} go {activity}?",
    "Did {name} ever reply about the {thing}?",
    "Who mentioned {place}?",
    "What was the plan for {activity} last month?",
    "Anything about {food} in {place}?",
    'Find "{food} at that place"',
    "What did we decide about the {thing} for the {activity}?",
    "Who is visiting from {place}?",
    "When is the {activity} with {name}?",
    "What did {name} and I eat in {place}?",
    "Did I leave my {thing} somewhere?",
    "What happened with the {thing} last week?",
    "Which {activity} did we talk about in March?",
    "What did {name} think of {place}?",
    "Remind me what {name} said about {food}",
    "Is the {thing} ready yet?",
    "How much did the {thing} cost?",
    "Catch me up",
    "What did I miss this week?",
    "Tell me about the quantum chromodynamics seminar",
)


def bench_questions(*, count: int, seed: int) -> list[str]:
    """``count`` questions (at least one of every template), deterministic for ``seed``."""
    rng = random.Random(seed)
    questions: list[str] = []
    seen: set[str] = set()
    template_index = 0
    attempts = 0
    while len(questions) < count and attempts < count * 50:
        attempts += 1
        template = QUESTION_TEMPLATES[template_index % len(QUESTION_TEMPLATES)]
        template_index += 1
        question = template.format(
            name=rng.choice(FIRST_NAMES),
            place=rng.choice(PLACES),
            food=rng.choice(FOODS),
            activity=rng.choice(ACTIVITIES),
            thing=rng.choice(THINGS),
        )
        if question in seen and "{" in template:
            continue
        seen.add(question)
        questions.append(question)
    return questions
