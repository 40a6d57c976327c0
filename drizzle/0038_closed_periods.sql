CREATE TABLE "closed_periods" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "closed_periods_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"month" date NOT NULL,
	"action" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"actor_id" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "closed_periods_first_day" CHECK (extract(day from "closed_periods"."month") = 1),
	CONSTRAINT "closed_periods_action" CHECK ("closed_periods"."action" in ('close', 'reopen')),
	CONSTRAINT "closed_periods_reason" CHECK ("closed_periods"."action" = 'close' or length(trim("closed_periods"."reason")) > 0)
);
--> statement-breakpoint
ALTER TABLE "closed_periods" ADD CONSTRAINT "closed_periods_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "closed_periods_month_idx" ON "closed_periods" USING btree ("month","id");--> statement-breakpoint
-- custom: closed periods (docs/product.md#periods). Rows are only ever added: a close and a reopening are each a row.
-- Any table whose rows are only ever added may use it (its name is in the message).
CREATE FUNCTION "ataa_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER "closed_periods_append_only" BEFORE UPDATE OR DELETE ON "closed_periods" FOR EACH ROW EXECUTE FUNCTION "ataa_append_only"();
--> statement-breakpoint
CREATE TRIGGER "closed_periods_no_truncate" BEFORE TRUNCATE ON "closed_periods" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_append_only"();
--> statement-breakpoint
-- Money dated in a closed month is refused with SQLSTATE AT001 and the month (YYYY-MM) in the message;
-- app/cases/closed-period.ts turns it into the Arabic refusal. The shared advisory lock on the month
-- waits for a close under way (app/aid/periods.server.ts takes it exclusively), and the close waits
-- for the money being written in it: a payment never slips into a month closed at the same moment.
CREATE FUNCTION "ataa_refuse_closed_period"("day" date) RETURNS void LANGUAGE plpgsql VOLATILE AS $$
BEGIN
	IF "day" IS NULL THEN RETURN; END IF;
	PERFORM pg_advisory_xact_lock_shared(1096040784, (extract(year FROM "day")::int * 12 + extract(month FROM "day")::int - 1));
	IF (SELECT p."action" = 'close' FROM "closed_periods" p WHERE p."month" = date_trunc('month', "day")::date ORDER BY p."id" DESC LIMIT 1) THEN
		RAISE EXCEPTION 'closed period %', to_char("day", 'YYYY-MM') USING ERRCODE = 'AT001';
	END IF;
END
$$;
--> statement-breakpoint
-- The aid ledger: a row given, changed or removed in a closed month. Its note alone may change (retention).
CREATE FUNCTION "ataa_case_aid_open_period"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND (OLD."given_on", OLD."amount", OLD."kind", OLD."case_id", OLD."instalment_id") IS DISTINCT FROM (NEW."given_on", NEW."amount", NEW."kind", NEW."case_id", NEW."instalment_id")) THEN
		PERFORM "ataa_refuse_closed_period"(OLD."given_on");
	END IF;
	IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
	IF TG_OP = 'INSERT' OR (OLD."given_on", OLD."amount", OLD."kind", OLD."case_id", OLD."instalment_id") IS DISTINCT FROM (NEW."given_on", NEW."amount", NEW."kind", NEW."case_id", NEW."instalment_id") THEN
		PERFORM "ataa_refuse_closed_period"(NEW."given_on");
	END IF;
	RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "case_aid_open_period" BEFORE INSERT OR UPDATE OR DELETE ON "case_aid" FOR EACH ROW EXECUTE FUNCTION "ataa_case_aid_open_period"();
--> statement-breakpoint
-- An instalment paid or delivered in a closed month, or one paid in a closed month undone.
CREATE FUNCTION "ataa_instalment_open_period"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF (OLD."status", OLD."paid_on", OLD."amount") IS DISTINCT FROM (NEW."status", NEW."paid_on", NEW."amount") THEN
		PERFORM "ataa_refuse_closed_period"(OLD."paid_on");
		PERFORM "ataa_refuse_closed_period"(NEW."paid_on");
	END IF;
	RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "aid_instalments_open_period" BEFORE UPDATE ON "aid_instalments" FOR EACH ROW EXECUTE FUNCTION "ataa_instalment_open_period"();
--> statement-breakpoint
-- A batch sent (or its day changed) in a closed month.
CREATE FUNCTION "ataa_batch_open_period"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'UPDATE' AND OLD."sent_on" IS DISTINCT FROM NEW."sent_on" THEN
		PERFORM "ataa_refuse_closed_period"(OLD."sent_on");
	END IF;
	IF TG_OP = 'INSERT' OR OLD."sent_on" IS DISTINCT FROM NEW."sent_on" THEN
		PERFORM "ataa_refuse_closed_period"(NEW."sent_on");
	END IF;
	RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "payment_batches_open_period" BEFORE INSERT OR UPDATE ON "payment_batches" FOR EACH ROW EXECUTE FUNCTION "ataa_batch_open_period"();
--> statement-breakpoint
-- The committee's approval, dated the day it is made (Riyadh time).
CREATE FUNCTION "ataa_decision_open_period"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM "ataa_refuse_closed_period"((NEW."created_at" AT TIME ZONE 'Asia/Riyadh')::date);
	RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "case_decisions_open_period" BEFORE INSERT ON "case_decisions" FOR EACH ROW WHEN (NEW."outcome" = 'approve') EXECUTE FUNCTION "ataa_decision_open_period"();
