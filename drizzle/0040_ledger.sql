CREATE TYPE "public"."ledger_phase" AS ENUM('pending', 'posted', 'voided');--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"transaction_id" uuid NOT NULL,
	"debit_account" text NOT NULL,
	"credit_account" text NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"phase" "ledger_phase" NOT NULL,
	"pending_id" integer,
	"corrects_id" integer,
	"value_date" date NOT NULL,
	"case_id" uuid,
	"instalment_id" integer,
	"decision_id" integer,
	"batch_id" integer,
	"fund_id" integer,
	"actor_id" integer,
	"reason" text DEFAULT '' NOT NULL,
	"screen" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_amount" CHECK ("ledger_entries"."amount" > 0),
	CONSTRAINT "ledger_entries_accounts" CHECK ("ledger_entries"."debit_account" <> "ledger_entries"."credit_account"),
	CONSTRAINT "ledger_entries_phase" CHECK (("ledger_entries"."phase" = 'pending' and "ledger_entries"."pending_id" is null) or ("ledger_entries"."phase" = 'voided' and "ledger_entries"."pending_id" is not null) or "ledger_entries"."phase" = 'posted')
);
--> statement-breakpoint
ALTER TABLE "case_aid" DROP CONSTRAINT "case_aid_amount_positive";--> statement-breakpoint
DROP INDEX "case_aid_instalment_unique";--> statement-breakpoint
ALTER TABLE "case_aid" ADD COLUMN "corrects_id" integer;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_pending_id_ledger_entries_id_fk" FOREIGN KEY ("pending_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_corrects_id_ledger_entries_id_fk" FOREIGN KEY ("corrects_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_instalment_id_aid_instalments_id_fk" FOREIGN KEY ("instalment_id") REFERENCES "public"."aid_instalments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_decision_id_case_decisions_id_fk" FOREIGN KEY ("decision_id") REFERENCES "public"."case_decisions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_batch_id_payment_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."payment_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_fund_id_funds_id_fk" FOREIGN KEY ("fund_id") REFERENCES "public"."funds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_entries_transaction_idx" ON "ledger_entries" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_instalment_idx" ON "ledger_entries" USING btree ("instalment_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_case_idx" ON "ledger_entries" USING btree ("case_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_fund_idx" ON "ledger_entries" USING btree ("fund_id","phase");--> statement-breakpoint
CREATE INDEX "ledger_entries_debit_idx" ON "ledger_entries" USING btree ("debit_account");--> statement-breakpoint
CREATE INDEX "ledger_entries_credit_idx" ON "ledger_entries" USING btree ("credit_account");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_pending_unique" ON "ledger_entries" USING btree ("pending_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_corrects_unique" ON "ledger_entries" USING btree ("corrects_id");--> statement-breakpoint
ALTER TABLE "case_aid" ADD CONSTRAINT "case_aid_corrects_id_case_aid_id_fk" FOREIGN KEY ("corrects_id") REFERENCES "public"."case_aid"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "case_aid_instalment_idx" ON "case_aid" USING btree ("instalment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "case_aid_corrects_unique" ON "case_aid" USING btree ("corrects_id");--> statement-breakpoint
ALTER TABLE "case_aid" ADD CONSTRAINT "case_aid_amount_positive" CHECK (("case_aid"."corrects_id" is null and "case_aid"."amount" > 0) or ("case_aid"."corrects_id" is not null and "case_aid"."amount" < 0));--> statement-breakpoint
-- custom: case_aid is append-only (docs/decisions/018-append-only-ledger.md): a row is never updated
-- or deleted; a bounced transfer is a new reversing row naming the one it cancels (corrects_id, its
-- amount negated). One narrow exception, for retention alone (app/operations/retention-purge.server.ts):
-- with the transaction's setting `ataa.retention_purge` on, a row's free text (the column the trigger
-- names) may be blanked, and a row written more than 10 years ago may be deleted.
CREATE OR REPLACE FUNCTION "ataa_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF coalesce(current_setting('ataa.retention_purge', true), '') = 'on' THEN
		IF TG_OP = 'DELETE' AND OLD."created_at" < now() - interval '10 years' THEN
			RETURN OLD;
		END IF;
		IF TG_OP = 'UPDATE' AND TG_NARGS > 0 AND to_jsonb(NEW) ->> TG_ARGV[0] = ''
			AND (to_jsonb(NEW) - TG_ARGV[0]) = (to_jsonb(OLD) - TG_ARGV[0]) THEN
			RETURN NEW;
		END IF;
	END IF;
	RAISE EXCEPTION '% is append-only: a correction is a new row naming the one it corrects', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER "case_aid_append_only" BEFORE UPDATE OR DELETE ON "case_aid" FOR EACH ROW EXECUTE FUNCTION "ataa_append_only"('note');
--> statement-breakpoint
CREATE TRIGGER "case_aid_no_truncate" BEFORE TRUNCATE ON "case_aid" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_append_only"();
--> statement-breakpoint
-- custom: the reports count a reversing row on its own day (drizzle/0029_report_summary.sql, its
-- "given" figures): riyals are the rows' sum, so a payment and its reversal net to zero, and a period
-- already reported is not rewritten by a later bounce; a family is helped in a group when what it was
-- given there is more than zero; the days to its first aid count its first row not a reversal.
CREATE OR REPLACE FUNCTION "ataa_report_refresh"("ids" uuid[]) RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
BEGIN
	-- On PostgreSQL two transactions changing one case refresh it one after the other: the second
	-- waits here for the first's commit, then reads it.
	PERFORM 1 FROM "cases" WHERE "id" = ANY("ids") ORDER BY "id" FOR NO KEY UPDATE;
	-- What the cases add now ("fresh") and added until now ("before"): their rows no longer there
	-- deleted, the others written, and the difference added to report_figures (a group whose figures
	-- did not change is not written).
	WITH "touched" AS MATERIALIZED (
		SELECT "id", "type", "city", "household", "submitted_at", "deleted_at" FROM "cases" WHERE "id" = ANY("ids")
	),
	"fresh" AS (
		SELECT c."id" AS "case_id", fact."year", g."grain", g."key", c."type", c."city",
			count(*) FILTER (WHERE fact."kind" = 'received')::int AS "received",
			(count(*) FILTER (WHERE fact."kind" = 'studied') > 0)::int AS "studied",
			count(*) FILTER (WHERE fact."kind" = 'decided')::int AS "decisions",
			count(*) FILTER (WHERE fact."outcome" = 'approve')::int AS "approved",
			count(*) FILTER (WHERE fact."outcome" = 'reject')::int AS "rejected",
			coalesce(sum(fact."amount" * coalesce(fact."months", 1)) FILTER (WHERE fact."outcome" = 'approve'), 0) AS "approved_riyals",
			coalesce(sum(extract(epoch FROM fact."at" - c."submitted_at") / 86400) FILTER (WHERE fact."outcome" <> 'return'), 0) AS "decision_days",
			count(extract(epoch FROM fact."at" - c."submitted_at") / 86400) FILTER (WHERE fact."outcome" <> 'return')::int AS "decisions_timed",
			(coalesce(sum(fact."amount") FILTER (WHERE fact."kind" = 'given'), 0) > 0)::int AS "families",
			CASE WHEN coalesce(sum(fact."amount") FILTER (WHERE fact."kind" = 'given'), 0) > 0 THEN c."household" ELSE 0 END AS "individuals",
			coalesce(sum(fact."amount") FILTER (WHERE fact."kind" = 'given'), 0) AS "given_riyals",
			coalesce(sum(sign(fact."amount")) FILTER (WHERE fact."delivered"), 0)::int AS "in_kind",
			CASE WHEN coalesce(sum(fact."amount") FILTER (WHERE fact."kind" = 'given'), 0) > 0
				THEN coalesce(extract(epoch FROM (min(fact."given_on") FILTER (WHERE fact."amount" > 0)::timestamp - (c."submitted_at" AT TIME ZONE 'Asia/Riyadh'))) / 86400, 0) ELSE 0 END AS "aid_days",
			(coalesce(sum(fact."amount") FILTER (WHERE fact."kind" = 'given'), 0) > 0
				AND extract(epoch FROM (min(fact."given_on") FILTER (WHERE fact."amount" > 0)::timestamp - (c."submitted_at" AT TIME ZONE 'Asia/Riyadh'))) / 86400 IS NOT NULL)::int AS "aid_timed"
		FROM (
			SELECT 'received' AS "kind", c."id" AS "case_id", extract(year FROM c."submitted_at" AT TIME ZONE 'Asia/Riyadh')::int AS "year",
				to_char(c."submitted_at" AT TIME ZONE 'Asia/Riyadh', 'YYYY-MM') AS "month", NULL::text AS "fund", NULL::"decision_outcome" AS "outcome",
				NULL::timestamptz AS "at", NULL::numeric AS "amount", NULL::integer AS "months", NULL::date AS "given_on", NULL::boolean AS "delivered"
			FROM "touched" c WHERE c."submitted_at" IS NOT NULL AND c."deleted_at" IS NULL
			UNION ALL
			SELECT 'studied', s."case_id", extract(year FROM s."created_at" AT TIME ZONE 'Asia/Riyadh')::int, to_char(s."created_at" AT TIME ZONE 'Asia/Riyadh', 'YYYY-MM'),
				NULL, NULL, NULL, NULL, NULL, NULL, NULL
			FROM "touched" c JOIN "case_studies" s ON s."case_id" = c."id" WHERE c."deleted_at" IS NULL
			UNION ALL
			SELECT 'decided', d."case_id", extract(year FROM d."created_at" AT TIME ZONE 'Asia/Riyadh')::int, to_char(d."created_at" AT TIME ZONE 'Asia/Riyadh', 'YYYY-MM'),
				coalesce(d."fund_id"::text, ''), d."outcome", d."created_at", d."amount", d."months", NULL, NULL
			FROM "case_decisions" d WHERE d."case_id" = ANY("ids")
			UNION ALL
			-- Its instalment's fund and status, looked up by its id (as the report's left join).
			SELECT 'given', a."case_id", extract(year FROM a."given_on")::int, to_char(a."given_on", 'YYYY-MM'),
				coalesce((SELECT i."fund_id" FROM "aid_instalments" i WHERE i."id" = a."instalment_id")::text, ''), NULL, NULL, a."amount", NULL, a."given_on",
				(SELECT i."status" = 'delivered' FROM "aid_instalments" i WHERE i."id" = a."instalment_id")
			FROM "case_aid" a WHERE a."case_id" = ANY("ids")
		) fact
		JOIN "touched" c ON c."id" = fact."case_id"
		CROSS JOIN LATERAL (VALUES ('year', ''), ('month', fact."month"), ('fund', coalesce(fact."fund", ''))) AS g ("grain", "key")
		GROUP BY c."id", c."type", c."city", c."household", c."submitted_at", fact."year", g."grain", g."key"
	),
	"before" AS (SELECT * FROM "report_case_figures" WHERE "case_id" = ANY("ids")),
	"gone" AS (
		DELETE FROM "report_case_figures" r WHERE r."case_id" = ANY("ids")
			AND NOT EXISTS (SELECT FROM "fresh" f WHERE f."case_id" = r."case_id" AND f."year" = r."year" AND f."grain" = r."grain" AND f."key" = r."key")
	),
	"written" AS (
		INSERT INTO "report_case_figures" ("case_id", "year", "grain", "key", "type", "city", "received", "studied", "decisions", "approved", "rejected", "approved_riyals", "decision_days", "decisions_timed", "families", "individuals", "given_riyals", "in_kind", "aid_days", "aid_timed")
		SELECT * FROM "fresh"
		ON CONFLICT ("case_id", "year", "grain", "key") DO UPDATE SET
			"type" = excluded."type", "city" = excluded."city", "received" = excluded."received", "studied" = excluded."studied", "decisions" = excluded."decisions",
			"approved" = excluded."approved", "rejected" = excluded."rejected", "approved_riyals" = excluded."approved_riyals", "decision_days" = excluded."decision_days",
			"decisions_timed" = excluded."decisions_timed", "families" = excluded."families", "individuals" = excluded."individuals", "given_riyals" = excluded."given_riyals",
			"in_kind" = excluded."in_kind", "aid_days" = excluded."aid_days", "aid_timed" = excluded."aid_timed"
		WHERE ("report_case_figures".*) IS DISTINCT FROM (excluded.*)
	),
	"difference" AS (
		SELECT "year", "grain", "key", "type", "city", sum("received") AS "received", sum("studied") AS "studied", sum("decisions") AS "decisions",
			sum("approved") AS "approved", sum("rejected") AS "rejected", sum("approved_riyals") AS "approved_riyals", sum("decision_days") AS "decision_days",
			sum("decisions_timed") AS "decisions_timed", sum("families") AS "families", sum("individuals") AS "individuals", sum("given_riyals") AS "given_riyals",
			sum("in_kind") AS "in_kind", sum("aid_days") AS "aid_days", sum("aid_timed") AS "aid_timed"
		FROM (
			SELECT "year", "grain", "key", "type", "city", "received", "studied", "decisions", "approved", "rejected", "approved_riyals", "decision_days", "decisions_timed", "families", "individuals", "given_riyals", "in_kind", "aid_days", "aid_timed" FROM "fresh"
			UNION ALL
			SELECT "year", "grain", "key", "type", "city", -"received", -"studied", -"decisions", -"approved", -"rejected", -"approved_riyals", -"decision_days", -"decisions_timed", -"families", -"individuals", -"given_riyals", -"in_kind", -"aid_days", -"aid_timed" FROM "before"
		) change
		GROUP BY "year", "grain", "key", "type", "city"
	)
	INSERT INTO "report_figures" AS f ("year", "grain", "key", "type", "city", "received", "studied", "decisions", "approved", "rejected", "approved_riyals", "decision_days", "decisions_timed", "families", "individuals", "given_riyals", "in_kind", "aid_days", "aid_timed")
	SELECT * FROM "difference"
	WHERE ("received", "studied", "decisions", "approved", "rejected", "approved_riyals", "decision_days", "decisions_timed", "families", "individuals", "given_riyals", "in_kind", "aid_days", "aid_timed") <> (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	ORDER BY "year", "grain", "key", "type", "city"
	ON CONFLICT ("year", "grain", "key", "type", "city") DO UPDATE SET
		"received" = f."received" + excluded."received", "studied" = f."studied" + excluded."studied", "decisions" = f."decisions" + excluded."decisions",
		"approved" = f."approved" + excluded."approved", "rejected" = f."rejected" + excluded."rejected", "approved_riyals" = f."approved_riyals" + excluded."approved_riyals",
		"decision_days" = f."decision_days" + excluded."decision_days", "decisions_timed" = f."decisions_timed" + excluded."decisions_timed",
		"families" = f."families" + excluded."families", "individuals" = f."individuals" + excluded."individuals", "given_riyals" = f."given_riyals" + excluded."given_riyals",
		"in_kind" = f."in_kind" + excluded."in_kind", "aid_days" = f."aid_days" + excluded."aid_days", "aid_timed" = f."aid_timed" + excluded."aid_timed";
END
$$;
--> statement-breakpoint
SELECT "ataa_report_refresh"(array(SELECT "id" FROM "cases"));
--> statement-breakpoint
-- custom: ledger_entries is append-only (docs/decisions/018-append-only-ledger.md), as case_aid is
-- (drizzle/0037_case_aid_append_only.sql, `ataa_append_only`): retention alone may blank a reason
-- and delete an entry written more than 10 years ago.
CREATE TRIGGER "ledger_entries_append_only" BEFORE UPDATE OR DELETE ON "ledger_entries" FOR EACH ROW EXECUTE FUNCTION "ataa_append_only"('reason');
--> statement-breakpoint
CREATE TRIGGER "ledger_entries_no_truncate" BEFORE TRUNCATE ON "ledger_entries" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_append_only"();
--> statement-breakpoint
-- custom: a posting or a void resolves a pending transfer of the same accounts (a void its whole
-- amount, a posting at most it); a correction reverses a posted transfer (its accounts swapped, at
-- most its amount). Each is refused otherwise; the unique indexes keep each resolved and corrected once.
CREATE FUNCTION "ataa_ledger_entry_checked"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	"named" "ledger_entries";
BEGIN
	IF NEW."pending_id" IS NOT NULL THEN
		SELECT * INTO "named" FROM "ledger_entries" WHERE "id" = NEW."pending_id";
		IF NOT FOUND OR "named"."phase" <> 'pending' OR "named"."debit_account" <> NEW."debit_account" OR "named"."credit_account" <> NEW."credit_account"
			OR NEW."amount" > "named"."amount" OR (NEW."phase" = 'voided' AND NEW."amount" <> "named"."amount") THEN
			RAISE EXCEPTION 'ledger_entries: entry % does not resolve pending transfer %', NEW."phase", NEW."pending_id" USING ERRCODE = 'check_violation';
		END IF;
	END IF;
	IF NEW."corrects_id" IS NOT NULL THEN
		SELECT * INTO "named" FROM "ledger_entries" WHERE "id" = NEW."corrects_id";
		IF NOT FOUND OR "named"."phase" <> 'posted' OR NEW."phase" <> 'posted' OR "named"."debit_account" <> NEW."credit_account" OR "named"."credit_account" <> NEW."debit_account"
			OR NEW."amount" > "named"."amount" THEN
			RAISE EXCEPTION 'ledger_entries: entry does not reverse posted transfer %', NEW."corrects_id" USING ERRCODE = 'check_violation';
		END IF;
	END IF;
	RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "ledger_entries_checked" BEFORE INSERT ON "ledger_entries" FOR EACH ROW EXECUTE FUNCTION "ataa_ledger_entry_checked"();
--> statement-breakpoint
-- custom: the opening entries of instalments that have none (those before this ledger; and
-- scripts/bench-aid.ts's, written in bulk): each commits its amount of its fund on its decision's day
-- (pending); a paid or delivered one is posted on its day, a cancelled one voided, as
-- app/aid/ledger.server.ts writes them for new ones. A payment reopened before this ledger left no
-- row behind (docs/decisions/018-append-only-ledger.md): nothing is invented for it.
CREATE FUNCTION "ataa_ledger_opening_entries"() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
	"written" integer;
BEGIN
	CREATE TEMPORARY TABLE "ledger_opened" ON COMMIT DROP AS
	SELECT i."id" AS "instalment_id" FROM "aid_instalments" i WHERE NOT EXISTS (SELECT 1 FROM "ledger_entries" e WHERE e."instalment_id" = i."id");
	INSERT INTO "ledger_entries" ("transaction_id", "debit_account", "credit_account", "amount", "phase", "value_date", "case_id", "instalment_id", "decision_id", "fund_id", "actor_id", "reason", "screen")
	SELECT gen_random_uuid(), 'fund:' || i."fund_id", 'family:' || i."case_id", i."amount", 'pending', (d."created_at" AT TIME ZONE 'Asia/Riyadh')::date,
		i."case_id", i."id", i."decision_id", i."fund_id", d."decider_id", 'قيد افتتاحي: اعتماد سابق لدفتر القيود', 'opening'
	FROM "aid_instalments" i JOIN "case_decisions" d ON d."id" = i."decision_id" JOIN "ledger_opened" o ON o."instalment_id" = i."id"
	ORDER BY i."id";
	GET DIAGNOSTICS "written" = ROW_COUNT;
	INSERT INTO "ledger_entries" ("transaction_id", "debit_account", "credit_account", "amount", "phase", "pending_id", "value_date", "case_id", "instalment_id", "decision_id", "batch_id", "fund_id", "actor_id", "reason", "screen")
	SELECT p."transaction_id", p."debit_account", p."credit_account", p."amount", CASE WHEN i."status" = 'cancelled' THEN 'voided' ELSE 'posted' END::"ledger_phase", p."id",
		coalesce(i."paid_on", (i."updated_at" AT TIME ZONE 'Asia/Riyadh')::date), p."case_id", p."instalment_id", p."decision_id", i."batch_id", p."fund_id", coalesce(i."recorded_by", p."actor_id"),
		'قيد افتتاحي: صرف أو إلغاء سابق لدفتر القيود', 'opening'
	FROM "ledger_entries" p JOIN "aid_instalments" i ON i."id" = p."instalment_id" JOIN "ledger_opened" o ON o."instalment_id" = i."id"
	WHERE p."phase" = 'pending' AND i."status" IN ('paid', 'delivered', 'cancelled')
	ORDER BY p."id";
	DROP TABLE "ledger_opened";
	RETURN "written";
END
$$;
--> statement-breakpoint
SELECT "ataa_ledger_opening_entries"();
