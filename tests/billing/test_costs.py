import pytest

from billing.services.pricing import cost_of_usage, estimated_max_cost, model_key_parts
from billing.types import CostPlan, UsageInput
from tests.billing.conftest import PLAN, PLAN_ESTIMATE
from tests.factories import PriceBookEntryFactory

pytestmark = pytest.mark.django_db


def test_estimated_max_cost_matches_the_hand_computed_formula(entry):
    assert (
        estimated_max_cost(
            entry=entry,
            query_embedding_tokens=PLAN.query_embedding_tokens,
            uncached_input_tokens=PLAN.uncached_input_tokens,
            cache_read_tokens=PLAN.cache_read_tokens,
            max_output_tokens=PLAN.max_output_tokens,
            permitted_additional_steps=PLAN.permitted_additional_steps,
        )
        == PLAN_ESTIMATE
    )


def test_estimated_max_cost_rounds_each_term_up_separately():
    entry = PriceBookEntryFactory(
        input_micro_usd_per_million=150_000,
        cached_input_micro_usd_per_million=75_000,
        output_micro_usd_per_million=600_000,
        embedding_micro_usd_per_million=20_000,
        step_reserve_micro_usd=0,
    )
    # 1 x 0.02 -> 1; 1,234 x 0.15 = 185.1 -> 186; 17 x 0.075 = 1.275 -> 2; 333 x 0.6 = 199.8
    # -> 200. Summing first and rounding once would give ceil(386.195) = 387, not 389.
    assert (
        estimated_max_cost(
            entry=entry,
            query_embedding_tokens=1,
            uncached_input_tokens=1_234,
            cache_read_tokens=17,
            max_output_tokens=333,
            permitted_additional_steps=0,
        )
        == 389
    )


def test_estimated_max_cost_of_steps_only_is_the_step_reserve_times_steps(entry):
    assert (
        estimated_max_cost(
            entry=entry,
            query_embedding_tokens=0,
            uncached_input_tokens=0,
            cache_read_tokens=0,
            max_output_tokens=0,
            permitted_additional_steps=3,
        )
        == 9_000
    )


def test_estimated_max_cost_prices_the_query_embedding_with_the_embedding_model(entry):
    embedder = PriceBookEntryFactory(
        price_book=entry.price_book,
        provider="remote",
        model="embedder",
        embedding_micro_usd_per_million=130_000,
    )
    # 10,000 query tokens x 0.13 = 1,300 instead of x 0.02 = 200 with the generator's rate.
    assert (
        estimated_max_cost(
            entry=entry,
            embedding_entry=embedder,
            query_embedding_tokens=10_000,
            uncached_input_tokens=0,
            cache_read_tokens=0,
            max_output_tokens=0,
            permitted_additional_steps=0,
        )
        == 1_300
    )


def test_cost_of_usage_breaks_down_by_kind(entry):
    cost = cost_of_usage(
        entry=entry,
        usage=UsageInput(
            uncached_input_tokens=2_001,
            cached_input_tokens=999,
            output_tokens=321,
            embedding_tokens=12,
        ),
    )
    # 2,001 x 2.5 = 5,002.5 -> 5,003; 999 x 1.25 = 1,248.75 -> 1,249; 321 x 10 = 3,210;
    # 12 x 0.02 = 0.24 -> 1
    assert cost.input_micro_usd == 5_003
    assert cost.cached_input_micro_usd == 1_249
    assert cost.output_micro_usd == 3_210
    assert cost.embedding_micro_usd == 1
    assert cost.steps_micro_usd == 0
    assert cost.total_micro_usd == 9_463


def test_cost_of_usage_of_a_local_model_is_zero():
    free = PriceBookEntryFactory(
        provider="local",
        model="extractive",
        input_micro_usd_per_million=0,
        cached_input_micro_usd_per_million=0,
        output_micro_usd_per_million=0,
        embedding_micro_usd_per_million=0,
        step_reserve_micro_usd=0,
    )
    cost = cost_of_usage(
        entry=free,
        usage=UsageInput(uncached_input_tokens=50_000, output_tokens=5_000, embedding_tokens=30),
    )
    assert cost.total_micro_usd == 0


def test_cost_plan_refuses_negative_counts():
    with pytest.raises(ValueError):
        CostPlan(max_output_tokens=-1)


def test_model_keys_split_at_the_first_slash():
    assert model_key_parts("local/extractive") == ("local", "extractive")
    assert model_key_parts("openrouter/meta/llama-3") == ("openrouter", "meta/llama-3")
    for invalid in ("extractive", "/x", "local/"):
        with pytest.raises(ValueError):
            model_key_parts(invalid)
