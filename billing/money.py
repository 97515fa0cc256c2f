"""Integer micro-USD arithmetic and its one display format.

Money is an ``int`` of micro-USD everywhere (1 USD = 1,000,000 micro-USD); prices are
micro-USD per million tokens. Dollars appear only at display edges, through ``Decimal``.
"""

from __future__ import annotations

from decimal import Decimal

MICRO_USD_PER_USD = 1_000_000
TOKENS_PER_PRICE_UNIT = 1_000_000


def ceil_div(numerator: int, denominator: int) -> int:
    """Integer division rounded towards positive infinity (no floats involved)."""
    return -(-numerator // denominator)


def micro_usd_for_tokens(*, rate_micro_usd_per_million: int, tokens: int) -> int:
    """``rate x tokens / 1,000,000`` rounded up to a whole micro-USD.

    Rounding up per component means a priced usage is never under-charged and a non-zero
    usage of a non-zero price always costs at least one micro-USD."""
    if rate_micro_usd_per_million < 0 or tokens < 0:
        raise ValueError("rates and token counts are never negative")
    return ceil_div(rate_micro_usd_per_million * tokens, TOKENS_PER_PRICE_UNIT)


def format_micro_usd(value: int) -> str:
    """``1234`` -> ``"$0.001234"``; ``-5`` -> ``"-$0.000005"``; six decimals, never a float."""
    sign = "-" if value < 0 else ""
    dollars = Decimal(abs(value)).scaleb(-6)
    return f"{sign}${dollars:,.6f}"
