import pytest

from billing.money import ceil_div, format_micro_usd, micro_usd_for_tokens


@pytest.mark.parametrize(
    ("numerator", "denominator", "expected"),
    [(0, 7, 0), (1, 7, 1), (7, 7, 1), (8, 7, 2), (14, 7, 2), (1_000_001, 1_000_000, 2)],
)
def test_ceil_div_rounds_up(numerator, denominator, expected):
    assert ceil_div(numerator, denominator) == expected


@pytest.mark.parametrize(
    ("rate", "tokens", "expected"),
    [
        (0, 1_000_000, 0),  # a free model costs nothing however much it is used
        (150_000, 0, 0),  # no tokens, no cost
        (150_000, 1, 1),  # 0.15 micro-USD rounds up to 1
        (1_000_000, 1, 1),  # exactly 1 micro-USD
        (1_000_000, 3, 3),
        (150_000, 1_234, 186),  # 185.1 -> 186
        (600_000, 333, 200),  # 199.8 -> 200
        (75_000, 17, 2),  # 1.275 -> 2
        (2_500_000, 3_000, 7_500),  # exact, no rounding
        (999_999, 1_000_000, 999_999),  # a million tokens cost the rate itself
        (60_000_000, 128_000, 7_680_000),  # large numbers stay exact integers
    ],
)
def test_tokens_cost_rounds_up_to_whole_micro_usd(rate, tokens, expected):
    assert micro_usd_for_tokens(rate_micro_usd_per_million=rate, tokens=tokens) == expected


def test_negative_amounts_are_refused():
    with pytest.raises(ValueError):
        micro_usd_for_tokens(rate_micro_usd_per_million=-1, tokens=10)
    with pytest.raises(ValueError):
        micro_usd_for_tokens(rate_micro_usd_per_million=10, tokens=-1)


@pytest.mark.parametrize(
    ("micro_usd", "expected"),
    [
        (0, "$0.000000"),
        (1, "$0.000001"),
        (1_234, "$0.001234"),
        (500_000, "$0.500000"),
        (12_345_678, "$12.345678"),
        (1_234_567_890_123, "$1,234,567.890123"),
        (-5, "-$0.000005"),
    ],
)
def test_format_micro_usd_is_exact(micro_usd, expected):
    assert format_micro_usd(micro_usd) == expected
