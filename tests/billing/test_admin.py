import datetime as dt

import pytest
from django.test import Client

from billing.models import AiPolicy, PriceBook, PriceBookEntry, ReservationState
from billing.services.reservations import budget_reserve
from tests.billing.conftest import NOW, PLAN
from tests.factories import (
    AiPolicyFactory,
    PriceBookEntryFactory,
    ReservationFactory,
    UsageEventFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client():
    admin = UserFactory(email="staff@example.com", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin)
    return client


def _inline_form(book, entries, **changes):
    data = {
        "note": book.note,
        "effective_from_0": book.effective_from.strftime("%Y-%m-%d"),
        "effective_from_1": book.effective_from.strftime("%H:%M:%S"),
        "entries-TOTAL_FORMS": str(len(entries)),
        "entries-INITIAL_FORMS": str(len(entries)),
        "entries-MIN_NUM_FORMS": "0",
        "entries-MAX_NUM_FORMS": "1000",
    }
    for index, entry in enumerate(entries):
        prefix = f"entries-{index}-"
        data.update(
            {
                prefix + "id": str(entry.pk),
                prefix + "price_book": str(book.pk),
                prefix + "provider": entry.provider,
                prefix + "model": entry.model,
                prefix + "input_micro_usd_per_million": str(entry.input_micro_usd_per_million),
                prefix + "cached_input_micro_usd_per_million": str(
                    entry.cached_input_micro_usd_per_million
                ),
                prefix + "output_micro_usd_per_million": str(entry.output_micro_usd_per_million),
                prefix + "embedding_micro_usd_per_million": str(
                    entry.embedding_micro_usd_per_million
                ),
                prefix + "step_reserve_micro_usd": str(entry.step_reserve_micro_usd),
            }
        )
    data.update(changes)
    return data


def test_every_billing_admin_page_renders(staff_client, entry):
    ReservationFactory()
    UsageEventFactory()
    AiPolicyFactory()
    for url in (
        "/admin/billing/pricebook/",
        f"/admin/billing/pricebook/{entry.price_book.pk}/change/",
        "/admin/billing/aipolicy/",
        "/admin/billing/aipolicy/add/",
        "/admin/billing/budgetperiod/",
        "/admin/billing/usageevent/",
        "/admin/billing/reservation/",
        "/admin/billing/openreservation/",
    ):
        assert staff_client.get(url).status_code == 200, url


def test_unused_version_entries_are_edited_in_the_admin(staff_client, entry):
    book = entry.price_book
    data = _inline_form(book, [entry], **{"entries-0-output_micro_usd_per_million": "42"})

    response = staff_client.post(f"/admin/billing/pricebook/{book.pk}/change/", data)

    assert response.status_code == 302
    assert PriceBookEntry.objects.get(pk=entry.pk).output_micro_usd_per_million == 42


def test_a_used_version_is_read_only_in_the_admin(staff_client, user, entry, policy):
    budget_reserve(
        user=user, request_id="r", provider="remote", model="model-x", plan=PLAN, now=NOW
    )
    book = PriceBook.objects.get(pk=entry.price_book.pk)

    page = staff_client.get(f"/admin/billing/pricebook/{book.pk}/change/")
    data = _inline_form(
        book,
        [entry],
        **{
            "entries-0-output_micro_usd_per_million": "42",
            "effective_from_0": "2030-01-01",
        },
    )
    staff_client.post(f"/admin/billing/pricebook/{book.pk}/change/", data)
    deletion = staff_client.post(f"/admin/billing/pricebook/{book.pk}/delete/", {"post": "yes"})

    assert b'name="entries-0-output_micro_usd_per_million"' not in page.content
    assert b'name="effective_from_0"' not in page.content
    assert deletion.status_code == 403
    stored = PriceBook.objects.get(pk=book.pk)
    assert stored.effective_from == book.effective_from
    assert PriceBookEntry.objects.get(pk=entry.pk).output_micro_usd_per_million == 10_000_000


def test_create_a_new_version_from_this_one(staff_client, entry):
    PriceBookEntryFactory(price_book=entry.price_book, provider="remote", model="model-y")
    versions_before = set(PriceBook.objects.values_list("version", flat=True))

    response = staff_client.post(
        "/admin/billing/pricebook/",
        {"action": "version_create_from", "_selected_action": [str(entry.price_book.pk)]},
    )

    new = PriceBook.objects.exclude(version__in=versions_before).get()
    assert response.status_code == 302
    assert response["Location"] == f"/admin/billing/pricebook/{new.pk}/change/"
    assert new.version == max(versions_before) + 1
    assert new.is_locked is False
    assert sorted(new.entries.values_list("model", flat=True)) == ["model-x", "model-y"]


def test_copy_action_wants_exactly_one_version(staff_client, entry, local_price_book):
    count = PriceBook.objects.count()

    staff_client.post(
        "/admin/billing/pricebook/",
        {
            "action": "version_create_from",
            "_selected_action": [str(entry.price_book.pk), str(local_price_book.pk)],
        },
    )

    assert PriceBook.objects.count() == count


def test_staff_change_a_users_limits(staff_client, user):
    policy = AiPolicyFactory(user=user, daily_limit_micro_usd=1)

    response = staff_client.post(
        f"/admin/billing/aipolicy/{policy.pk}/change/",
        {
            "user": str(user.pk),
            "is_ai_enabled": "on",
            "daily_limit_micro_usd": "750000",
            "monthly_limit_micro_usd": "9000000",
        },
    )

    assert response.status_code == 302
    policy = AiPolicy.objects.get(pk=policy.pk)
    assert (policy.daily_limit_micro_usd, policy.monthly_limit_micro_usd) == (750_000, 9_000_000)


def test_usage_events_list_shows_totals_for_the_current_filter(staff_client):
    alice, bob = UserFactory(), UserFactory()
    UsageEventFactory(user=alice, model="model-a", settled_micro_usd=1_500)
    UsageEventFactory(user=alice, model="model-b", settled_micro_usd=20)
    UsageEventFactory(
        user=bob,
        model="model-a",
        settled_micro_usd=7,
        created_at=dt.datetime(2026, 3, 16, 9, tzinfo=dt.UTC),
    )

    everything = staff_client.get("/admin/billing/usageevent/")
    for_alice = staff_client.get(f"/admin/billing/usageevent/?user__id__exact={alice.pk}")
    for_model = staff_client.get("/admin/billing/usageevent/?model=model-a")
    for_day = staff_client.get(
        "/admin/billing/usageevent/?created_at__year=2026&created_at__month=3&created_at__day=15"
    )

    assert everything.context["usage_totals"]["settled"] == "$0.001527"
    assert everything.context["usage_totals"]["events"] == 3
    assert for_alice.context["usage_totals"]["settled"] == "$0.001520"
    assert for_model.context["usage_totals"]["settled"] == "$0.001507"
    assert for_day.context["usage_totals"]["events"] == 2
    assert b"settled <strong>$0.001527</strong>" in everything.content


def test_usage_events_cannot_be_edited_or_deleted(staff_client):
    event = UsageEventFactory()

    change = staff_client.post(
        f"/admin/billing/usageevent/{event.pk}/change/", {"settled_micro_usd": "0"}
    )
    delete = staff_client.post(f"/admin/billing/usageevent/{event.pk}/delete/", {"post": "yes"})

    assert change.status_code == 403
    assert delete.status_code == 403
    event.refresh_from_db()
    assert event.settled_micro_usd == 4_500


def test_open_reservations_list_only_open_ones(staff_client):
    open_one = ReservationFactory(request_id="still-open")
    ReservationFactory(request_id="closed-one", state=ReservationState.SETTLED)

    response = staff_client.get("/admin/billing/openreservation/")

    listed = list(response.context["cl"].queryset)
    assert [row.pk for row in listed] == [open_one.pk]
