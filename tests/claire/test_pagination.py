from datetime import UTC, datetime

import pytest
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from claire.api.pagination import (
    before_id,
    before_moment_and_id,
    cursor_encode,
    keyset_page,
    page_limit,
)
from claire.errors import CodedError


def _request(**query: str) -> Request:
    return Request(APIRequestFactory().get("/api/anything", query))


def test_a_moment_cursor_reads_back_to_the_same_microsecond_and_id():
    moment = datetime(2026, 3, 1, 10, 0, 0, 123_457, tzinfo=UTC)
    cursor = cursor_encode(moment, 42)
    assert cursor == "1772359200123457_42"
    assert before_moment_and_id(_request(before=cursor)) == (moment, 42)


def test_an_id_cursor_is_the_id_alone():
    assert cursor_encode(17) == "17"
    assert before_id(_request(before="17")) == 17
    assert before_id(_request()) is None


@pytest.mark.parametrize("cursor", ["2026-03-01T10:00:00+00:00_5", "5_", "_5", "x_5", "1_0"])
def test_a_cursor_of_another_shape_is_invalid_cursor(cursor):
    with pytest.raises(CodedError) as refused:
        before_moment_and_id(_request(before=cursor))
    assert refused.value.code == "invalid_cursor"


def test_a_page_has_a_next_cursor_only_when_more_rows_follow():
    rows = [(30, "c"), (20, "b"), (10, "a")]
    first = keyset_page(rows, limit=2, key=lambda row: (row[0],))
    assert first.items == [(30, "c"), (20, "b")]
    assert first.next_cursor == "20"
    last = keyset_page(rows[2:], limit=2, key=lambda row: (row[0],))
    assert last.items == [(10, "a")]
    assert last.next_cursor is None


def test_the_limit_is_clamped_and_a_word_is_invalid_limit():
    assert page_limit(_request(), default=50, maximum=200) == 50
    assert page_limit(_request(limit="500"), default=50, maximum=200) == 200
    assert page_limit(_request(limit="0"), default=50, maximum=200) == 1
    with pytest.raises(CodedError) as refused:
        page_limit(_request(limit="abc"), default=50, maximum=200)
    assert refused.value.code == "invalid_limit"
