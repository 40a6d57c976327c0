-- custom: a closed month refuses what is DATED in it (docs/product.md#periods), not the undoing of
-- what it holds. drizzle/0038_closed_periods.sql refused an instalment change whose old day was in a
-- closed month: a payment of October, October closed, could not be bounced in November, although
-- the bounce writes only new rows dated today (case_aid's reversing row naming the payment, the
-- ledger's reversing entry naming the posting; app/aid/payments.server.ts reopenPayment), and
-- October's reports, read from those rows by their own days, stay as they were. Now: the new day
-- is checked; a payment undone (its day cleared) is allowed whatever its old day; a payment kept but
-- changed (its day, amount or state) is still refused when its old day is in a closed month.
CREATE OR REPLACE FUNCTION "ataa_instalment_open_period"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF (OLD."status", OLD."paid_on", OLD."amount") IS DISTINCT FROM (NEW."status", NEW."paid_on", NEW."amount") THEN
		PERFORM "ataa_refuse_closed_period"(NEW."paid_on");
		IF NEW."paid_on" IS NOT NULL THEN
			PERFORM "ataa_refuse_closed_period"(OLD."paid_on");
		END IF;
	END IF;
	RETURN NEW;
END
$$;
