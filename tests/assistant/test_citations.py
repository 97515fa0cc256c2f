import pytest

from assistant.citations import CitationFilter, cited_source_ids


def _stream(deltas, source_ids=("S1", "S2", "S3")):
    citation_filter = CitationFilter(source_ids)
    shown = [citation_filter.feed(delta) for delta in deltas]
    shown.append(citation_filter.flush())
    return "".join(shown), citation_filter


def test_valid_marks_pass_through_unchanged():
    text, citation_filter = _stream(["Dinner is at 8 [S1] and ", "drinks after [S3]."])
    assert text == "Dinner is at 8 [S1] and drinks after [S3]."
    assert citation_filter.cited == ["S1", "S3"]
    assert citation_filter.removed_count == 0


def test_mark_naming_no_source_is_removed_and_counted():
    text, citation_filter = _stream(["It was Ana [S9]. Then [S2] ", "agreed [S12]."])
    assert text == "It was Ana. Then [S2] agreed."
    assert citation_filter.removed_count == 2
    assert citation_filter.cited == ["S2"]


def test_mark_split_across_deltas_is_held_until_complete():
    citation_filter = CitationFilter(["S1"])
    assert citation_filter.feed("Friday at 8 [") == "Friday at 8"
    assert citation_filter.feed("S") == ""
    assert citation_filter.feed("7") == ""
    assert citation_filter.feed("]!") == "!"
    assert citation_filter.flush() == ""
    assert citation_filter.removed_count == 1


def test_grouped_marks_are_written_out_and_filtered():
    text, citation_filter = _stream(["Both came [S1, S4; S2]."])
    assert text == "Both came [S1][S2]."
    assert citation_filter.removed_count == 1


def test_brackets_that_are_not_marks_are_text():
    text, citation_filter = _stream(["A list [a, b] and [", "Sunday] and [S"])
    assert text == "A list [a, b] and [Sunday] and [S"
    assert citation_filter.removed_count == 0


def test_trailing_space_is_released_by_the_next_text():
    citation_filter = CitationFilter(["S1"])
    assert citation_filter.feed("one ") == "one"
    assert citation_filter.feed("two") == " two"


def test_cited_source_ids_in_order_of_first_mark():
    assert cited_source_ids("x [S2] y [S1] z [S2] [S5]", ["S1", "S2"]) == ["S2", "S1"]


@pytest.mark.parametrize("seed", range(20))
def test_any_split_of_the_text_shows_what_the_whole_text_shows(seed):
    import random

    randomizer = random.Random(seed)
    pieces = ["Dinner", " is", " on", " Friday ", "[S1]", " [S9]", "[S2, S3]", " [x] ", "  ", "\n"]
    text = "".join(randomizer.choice(pieces) for _ in range(30))
    whole = CitationFilter(["S1", "S2"])
    expected = whole.feed(text) + whole.flush()
    split = CitationFilter(["S1", "S2"])
    shown = ""
    start = 0
    while start < len(text):
        end = start + randomizer.randint(1, 6)
        shown += split.feed(text[start:end])
        start = end
    shown += split.flush()
    assert shown == expected
    assert (split.removed_count, split.cited) == (whole.removed_count, whole.cited)
