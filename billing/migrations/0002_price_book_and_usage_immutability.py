"""Database guards behind the accounting rules, so no code path (admin, shell, a bug) can
break them:

* a price book version that a reservation has used (``is_locked``) keeps its entries,
  version number and effective time forever; its entries cannot be added, changed or deleted;
* usage events are append-only.

Violations raise SQLSTATE 23001 (restrict_violation), which Django reports as IntegrityError.
"""

from django.db import migrations

FORWARD = """
CREATE FUNCTION billing_price_book_entry_guard() RETURNS trigger AS $$
DECLARE
    book_is_locked boolean;
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        -- FOR SHARE: a reservation locking this book waits for this edit, and vice versa.
        SELECT is_locked INTO book_is_locked FROM billing_pricebook
            WHERE id = OLD.price_book_id FOR SHARE;
        IF book_is_locked THEN
            RAISE EXCEPTION 'price book entry % belongs to a used price book version', OLD.id
                USING ERRCODE = 'restrict_violation';
        END IF;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        SELECT is_locked INTO book_is_locked FROM billing_pricebook
            WHERE id = NEW.price_book_id FOR SHARE;
        IF book_is_locked THEN
            RAISE EXCEPTION 'price book % is used and cannot get new entries', NEW.price_book_id
                USING ERRCODE = 'restrict_violation';
        END IF;
        RETURN NEW;
    END IF;
    RETURN OLD;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER billing_price_book_entry_guard
    BEFORE INSERT OR UPDATE OR DELETE ON billing_pricebookentry
    FOR EACH ROW EXECUTE FUNCTION billing_price_book_entry_guard();

CREATE FUNCTION billing_price_book_guard() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        IF OLD.is_locked THEN
            RAISE EXCEPTION 'price book version % is used and cannot be deleted', OLD.version
                USING ERRCODE = 'restrict_violation';
        END IF;
        RETURN OLD;
    END IF;
    IF OLD.is_locked AND (
        NEW.is_locked IS DISTINCT FROM TRUE
        OR NEW.version IS DISTINCT FROM OLD.version
        OR NEW.effective_from IS DISTINCT FROM OLD.effective_from
        OR NEW.locked_at IS DISTINCT FROM OLD.locked_at
    ) THEN
        RAISE EXCEPTION 'price book version % is used and cannot change', OLD.version
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER billing_price_book_guard
    BEFORE UPDATE OR DELETE ON billing_pricebook
    FOR EACH ROW EXECUTE FUNCTION billing_price_book_guard();

CREATE FUNCTION billing_usage_event_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'usage events are append-only (event %)', OLD.id
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER billing_usage_event_append_only
    BEFORE UPDATE ON billing_usageevent
    FOR EACH ROW EXECUTE FUNCTION billing_usage_event_append_only();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS billing_usage_event_append_only ON billing_usageevent;
DROP FUNCTION IF EXISTS billing_usage_event_append_only();
DROP TRIGGER IF EXISTS billing_price_book_guard ON billing_pricebook;
DROP FUNCTION IF EXISTS billing_price_book_guard();
DROP TRIGGER IF EXISTS billing_price_book_entry_guard ON billing_pricebookentry;
DROP FUNCTION IF EXISTS billing_price_book_entry_guard();
"""


class Migration(migrations.Migration):
    dependencies = [("billing", "0001_price_books_budgets_reservations_usage")]

    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
