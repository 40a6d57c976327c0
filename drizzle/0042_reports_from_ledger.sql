ALTER TABLE "ledger_entries" ADD COLUMN "aid_id" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_aid_unique" ON "ledger_entries" USING btree ("aid_id");
--> statement-breakpoint
-- custom: the reports and «أثرنا» read the money ledger (docs/decisions/018-append-only-ledger.md,
-- "Figures are read from the entries"), no longer case_aid. First every row of case_aid recorded by
-- hand before the committee's cycle (no instalment, so no entry until now: «تسجيل دعم إضافي» and
-- «تم تقديم الدعم» with an amount, before they became proposals to the committee) gets its entry:
-- a posting from the account `unfunded` (no fund was named) to the family, on the row's day, naming
-- the row (aid_id); a reversing row, a reversal naming that posting. A row that has its entry is
-- left alone. The trigger below writes the entry of any such row written later (the demo's and the
-- tests' records of the years before the cycle); the instalments' rows have theirs already
-- (app/aid/ledger.server.ts, and drizzle/0040_ledger.sql's opening entries).
CREATE FUNCTION "ataa_ledger_hand_recorded"("ids" integer[]) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
	"posted" integer;
	"reversed" integer;
BEGIN
	INSERT INTO "ledger_entries" ("transaction_id", "debit_account", "credit_account", "amount", "phase", "value_date", "case_id", "aid_id", "actor_id", "reason", "screen")
	SELECT gen_random_uuid(), 'unfunded', 'family:' || a."case_id", a."amount", 'posted', a."given_on", a."case_id", a."id", a."created_by",
		'قيد افتتاحي: دعم مسجل يدوياً قبل دورة الاعتماد', 'hand-recorded'
	FROM "case_aid" a
	WHERE a."id" = ANY("ids") AND a."instalment_id" IS NULL AND a."corrects_id" IS NULL AND a."amount" > 0
		AND NOT EXISTS (SELECT 1 FROM "ledger_entries" e WHERE e."aid_id" = a."id")
	ORDER BY a."id";
	GET DIAGNOSTICS "posted" = ROW_COUNT;
	INSERT INTO "ledger_entries" ("transaction_id", "debit_account", "credit_account", "amount", "phase", "corrects_id", "value_date", "case_id", "aid_id", "actor_id", "reason", "screen")
	SELECT gen_random_uuid(), 'family:' || a."case_id", 'unfunded', -a."amount", 'posted', e."id", a."given_on", a."case_id", a."id", a."created_by",
		'قيد تصحيح: دعم مسجل يدوياً أُلغي', 'hand-recorded'
	FROM "case_aid" a JOIN "ledger_entries" e ON e."aid_id" = a."corrects_id"
	WHERE a."id" = ANY("ids") AND a."instalment_id" IS NULL AND a."corrects_id" IS NOT NULL AND a."amount" < 0
		AND NOT EXISTS (SELECT 1 FROM "ledger_entries" r WHERE r."aid_id" = a."id")
	ORDER BY a."id";
	GET DIAGNOSTICS "reversed" = ROW_COUNT;
	RETURN "posted" + "reversed";
END
$$;
--> statement-breakpoint
SELECT "ataa_ledger_hand_recorded"(array(SELECT "id" FROM "case_aid" ORDER BY "id"));
--> statement-breakpoint
CREATE FUNCTION "ataa_ledger_hand_recorded_added"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	"ids" integer[] := array(SELECT "id" FROM "added" WHERE "instalment_id" IS NULL ORDER BY "id");
BEGIN
	IF cardinality("ids") > 0 THEN
		PERFORM "ataa_ledger_hand_recorded"("ids");
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "case_aid_hand_recorded" AFTER INSERT ON "case_aid" REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_ledger_hand_recorded_added"();
--> statement-breakpoint
-- custom: an entry dated in a closed month is refused (drizzle/0038_closed_periods.sql), as a row of
-- case_aid is: the reports of a closed month, now read from the entries, never change. Once per
-- statement and month (the opening entries of bench:aid are written a million at once).
CREATE FUNCTION "ataa_ledger_open_period"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM "ataa_refuse_closed_period"(m."day") FROM (SELECT DISTINCT date_trunc('month', "value_date")::date AS "day" FROM "added") m ORDER BY m."day";
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "ledger_entries_open_period" AFTER INSERT ON "ledger_entries" REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_ledger_open_period"();
--> statement-breakpoint
-- custom: the reports' "given" figures (drizzle/0029_report_summary.sql, drizzle/0040_ledger.sql)
-- are the entries': a posting to the family counts on its value date in its fund, a reversal (a
-- bounce, an adjusting entry) on its own, negative. The same rules as before, so the same figures.
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
			-- The money ledger's postings to or from the family's account: what it was given (a posting
			-- to it) less what came back (a reversal from it), on the entry's value date, in the entry's
			-- fund; delivered in kind by its instalment's status (a delivery is never reversed).
			SELECT 'given', e."case_id", extract(year FROM e."value_date")::int, to_char(e."value_date", 'YYYY-MM'),
				coalesce(e."fund_id"::text, ''), NULL, NULL, CASE WHEN e."credit_account" = 'family:' || e."case_id" THEN e."amount" ELSE -e."amount" END, NULL, e."value_date",
				(SELECT i."status" = 'delivered' FROM "aid_instalments" i WHERE i."id" = e."instalment_id")
			FROM "ledger_entries" e WHERE e."case_id" = ANY("ids") AND e."phase" = 'posted' AND 'family:' || e."case_id" IN (e."credit_account", e."debit_account")
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
-- custom: the figures follow the entries (and no longer case_aid): a posting or a reversal written
-- (or removed by retention after 10 years) refreshes its cases.
DROP TRIGGER "case_aid_report_added" ON "case_aid";
--> statement-breakpoint
DROP TRIGGER "case_aid_report_changed" ON "case_aid";
--> statement-breakpoint
DROP TRIGGER "case_aid_report_removed" ON "case_aid";
--> statement-breakpoint
DROP TRIGGER "case_aid_report_rebuild" ON "case_aid";
--> statement-breakpoint
-- (One function for both: each trigger names its rows "entries".)
CREATE FUNCTION "ataa_report_entries_written"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM "ataa_report_refresh"(array(SELECT DISTINCT "case_id" FROM "entries" WHERE "phase" = 'posted' AND "case_id" IS NOT NULL));
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "ledger_entries_report_added" AFTER INSERT ON "ledger_entries" REFERENCING NEW TABLE AS "entries" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_report_entries_written"();
--> statement-breakpoint
CREATE TRIGGER "ledger_entries_report_removed" AFTER DELETE ON "ledger_entries" REFERENCING OLD TABLE AS "entries" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_report_entries_written"();
--> statement-breakpoint
-- custom: an instalment's change counts only when it turns delivered (or back) after its posting:
-- its cases are found by their entries (the fund is the entry's own now, never changed).
CREATE OR REPLACE FUNCTION "ataa_report_instalments_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM "ataa_report_refresh"(array(SELECT DISTINCT e."case_id" FROM "ledger_entries" e JOIN "added" i ON i."id" = e."instalment_id" WHERE e."phase" = 'posted'));
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "ataa_report_instalments_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM "ataa_report_refresh"(array(SELECT DISTINCT e."case_id" FROM "ledger_entries" e JOIN "removed" i ON i."id" = e."instalment_id" WHERE e."phase" = 'posted'));
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "ataa_report_instalments_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	"changed" uuid[] := array(
		SELECT DISTINCT e."case_id" FROM "ledger_entries" e
		WHERE e."phase" = 'posted' AND e."instalment_id" IN (
			SELECT n."id" FROM "added" n JOIN "removed" o ON o."id" = n."id"
			WHERE (o."status" = 'delivered') IS DISTINCT FROM (n."status" = 'delivered')
			UNION SELECT "id" FROM (SELECT "id" FROM "added" EXCEPT SELECT "id" FROM "removed") new_id
			UNION SELECT "id" FROM (SELECT "id" FROM "removed" EXCEPT SELECT "id" FROM "added") old_id));
BEGIN
	IF cardinality("changed") > 0 THEN
		PERFORM "ataa_report_refresh"("changed");
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
-- custom: every case's figures summed again, from the entries.
SELECT "ataa_report_refresh"(array(SELECT "id" FROM "cases"));
