-- custom: the closed-period check of an instalment's change (drizzle/0038_closed_periods.sql) is only
-- called when it has a day to check: a payment day before or after the change. Making a batch changes
-- 1,000 instalments that have none (approved to in_batch), and a call of the function for each cost
-- as much as the rest of the change (bench:aid). ataa_refuse_closed_period does nothing with no day,
-- so what is refused is the same.
DROP TRIGGER "aid_instalments_open_period" ON "aid_instalments";
--> statement-breakpoint
CREATE TRIGGER "aid_instalments_open_period" BEFORE UPDATE ON "aid_instalments" FOR EACH ROW
	WHEN ((OLD."paid_on" IS NOT NULL OR NEW."paid_on" IS NOT NULL) AND (OLD."status", OLD."paid_on", OLD."amount") IS DISTINCT FROM (NEW."status", NEW."paid_on", NEW."amount"))
	EXECUTE FUNCTION "ataa_instalment_open_period"();
