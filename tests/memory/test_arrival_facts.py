"""An arrival announced with a new home is where someone lives now."""

from __future__ import annotations

import pytest

from memory.extract import fact_claims


def _lives(text: str, *, is_from_self: bool = False) -> list[str]:
    return [
        claim.value
        for claim in fact_claims(text, is_from_self=is_from_self, is_direct=False)
        if claim.kind == "lives_in"
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Made it to Lisbon!! The apartment is tiny but the light is amazing",
        "arrived in Berlin last night, movers come tomorrow 🚚",
        "Settled into Porto finally. Our new place has a balcony",
    ],
)
def test_an_arrival_with_a_new_home_is_a_move(text):
    assert len(_lives(text)) == 1


@pytest.mark.parametrize(
    "text",
    [
        "Made it to Lisbon!! What a flight",
        "She made it to Berlin, the apartment is hers now",
        "Made it to the concert, the place is packed",
        "Made it to Lisbon, the place is packed",
    ],
)
def test_a_trip_or_someone_elses_move_is_not(text):
    assert _lives(text) == []


def test_the_users_own_arrival_says_nothing_about_a_contact():
    assert _lives("Made it to Lisbon, the apartment is lovely", is_from_self=True) == []
