import pytest

from claire.stats import percentile


def test_the_median_of_an_even_count_lies_between_the_middle_samples():
    assert percentile([4.0, 1.0, 3.0, 2.0], 0.5) == 2.5


def test_p95_interpolates_toward_the_largest_sample():
    values = [float(n) for n in range(1, 101)]
    assert percentile(values, 0.95) == pytest.approx(95.05)
    assert percentile(values, 0.05) == pytest.approx(5.95)


def test_the_ends_are_the_smallest_and_largest_samples():
    assert percentile([3.0, 9.0, 5.0], 0.0) == 3.0
    assert percentile([3.0, 9.0, 5.0], 1.0) == 9.0


def test_one_sample_is_every_percentile_and_none_is_zero():
    assert percentile([7.0], 0.95) == 7.0
    assert percentile([], 0.5) == 0.0
