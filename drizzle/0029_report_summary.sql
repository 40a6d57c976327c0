CREATE TABLE "report_case_figures" (
	"case_id" uuid NOT NULL,
	"year" integer NOT NULL,
	"grain" text NOT NULL,
	"key" text NOT NULL,
	"type" text NOT NULL,
	"city" text NOT NULL,
	"received" integer DEFAULT 0 NOT NULL,
	"studied" integer DEFAULT 0 NOT NULL,
	"decisions" integer DEFAULT 0 NOT NULL,
	"approved" integer DEFAULT 0 NOT NULL,
	"rejected" integer DEFAULT 0 NOT NULL,
	"approved_riyals" numeric DEFAULT '0' NOT NULL,
	"decision_days" numeric DEFAULT '0' NOT NULL,
	"decisions_timed" integer DEFAULT 0 NOT NULL,
	"families" integer DEFAULT 0 NOT NULL,
	"individuals" integer DEFAULT 0 NOT NULL,
	"given_riyals" numeric DEFAULT '0' NOT NULL,
	"in_kind" integer DEFAULT 0 NOT NULL,
	"aid_days" numeric DEFAULT '0' NOT NULL,
	"aid_timed" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_case_figures_pk" PRIMARY KEY("case_id","year","grain","key")
);
--> statement-breakpoint
CREATE TABLE "report_figures" (
	"year" integer NOT NULL,
	"grain" text NOT NULL,
	"key" text NOT NULL,
	"type" text NOT NULL,
	"city" text NOT NULL,
	"received" integer DEFAULT 0 NOT NULL,
	"studied" integer DEFAULT 0 NOT NULL,
	"decisions" integer DEFAULT 0 NOT NULL,
	"approved" integer DEFAULT 0 NOT NULL,
	"rejected" integer DEFAULT 0 NOT NULL,
	"approved_riyals" numeric DEFAULT '0' NOT NULL,
	"decision_days" numeric DEFAULT '0' NOT NULL,
	"decisions_timed" integer DEFAULT 0 NOT NULL,
	"families" integer DEFAULT 0 NOT NULL,
	"individuals" integer DEFAULT 0 NOT NULL,
	"given_riyals" numeric DEFAULT '0' NOT NULL,
	"in_kind" integer DEFAULT 0 NOT NULL,
	"aid_days" numeric DEFAULT '0' NOT NULL,
	"aid_timed" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_figures_pk" PRIMARY KEY("year","grain","key","type","city")
);
--> statement-breakpoint
-- The year's reports summed ahead (app/aid/reports.server.ts, docs/performance.md): every change to a
-- case, a study, a decision, an instalment or the aid ledger recomputes what the cases it touches
-- add to each year (`report_case_figures`) from their records, with the report's own rules, and adds
-- the difference to `report_figures`, in the same statement's transaction. So the reports always equal
-- the ledger: app/aid/reports.db.test.ts checks them against it.
--   received   cases sent in the year, Riyadh time, not deleted: the month sent;
--   studied    cases with a study recorded, not deleted: once per year, and once per month studied;
--   decided    every decision, of a deleted case too: its month and its fund;
--   given      the aid ledger, its instalment's fund and status: a family once per year, month and fund,
--              with the days from sending to its first aid in each.
-- Its plans look each case's rows up by their indexes, whatever the tables' size and statistics
-- (PGlite keeps none up to date, and a plan is kept for the session): planned for the array at hand,
-- or once while the tables were small, they read whole tables once these had grown, and seeding
-- 100,000 cases slowed down as it went.
CREATE FUNCTION "ataa_report_refresh"("ids" uuid[]) RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
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
			(count(*) FILTER (WHERE fact."kind" = 'given') > 0)::int AS "families",
			CASE WHEN count(*) FILTER (WHERE fact."kind" = 'given') > 0 THEN c."household" ELSE 0 END AS "individuals",
			coalesce(sum(fact."amount") FILTER (WHERE fact."kind" = 'given'), 0) AS "given_riyals",
			count(*) FILTER (WHERE fact."delivered")::int AS "in_kind",
			coalesce(extract(epoch FROM (min(fact."given_on")::timestamp - (c."submitted_at" AT TIME ZONE 'Asia/Riyadh'))) / 86400, 0) AS "aid_days",
			(extract(epoch FROM (min(fact."given_on")::timestamp - (c."submitted_at" AT TIME ZONE 'Asia/Riyadh'))) / 86400 IS NOT NULL)::int AS "aid_timed"
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
-- The triggers, one per table and change, each once per statement with the rows it changed.
CREATE FUNCTION "ataa_report_rows_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM "ataa_report_refresh"(array(SELECT DISTINCT "case_id" FROM "added"));
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "ataa_report_rows_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM "ataa_report_refresh"(array(SELECT DISTINCT "case_id" FROM "removed"));
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "ataa_report_rows_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM "ataa_report_refresh"(array(SELECT "case_id" FROM "removed" UNION SELECT "case_id" FROM "added"));
	RETURN NULL;
END
$$;
--> statement-breakpoint
-- A new case has no study, decision or aid yet: only one sent counts.
CREATE FUNCTION "ataa_report_cases_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM "ataa_report_refresh"(array(SELECT "id" FROM "added" WHERE "submitted_at" IS NOT NULL));
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "ataa_report_cases_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM "ataa_report_refresh"(array(SELECT "id" FROM "removed"));
	RETURN NULL;
END
$$;
--> statement-breakpoint
-- Most changes to a case (its answers saved, its status) change no figure: only these columns do.
CREATE FUNCTION "ataa_report_cases_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	"changed" uuid[] := array(
		SELECT n."id" FROM "added" n JOIN "removed" o ON o."id" = n."id"
		WHERE (o."type", o."city", o."household", o."submitted_at", o."deleted_at") IS DISTINCT FROM (n."type", n."city", n."household", n."submitted_at", n."deleted_at")
		UNION SELECT "id" FROM (SELECT "id" FROM "added" EXCEPT SELECT "id" FROM "removed") new_id
		UNION SELECT "id" FROM (SELECT "id" FROM "removed" EXCEPT SELECT "id" FROM "added") old_id);
BEGIN
	IF cardinality("changed") > 0 THEN
		PERFORM "ataa_report_refresh"("changed");
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
-- The ledger's aid counts as delivered in kind by its instalment's status, and in its fund.
CREATE FUNCTION "ataa_report_instalments_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM "ataa_report_refresh"(array(SELECT DISTINCT a."case_id" FROM "case_aid" a JOIN "added" i ON i."id" = a."instalment_id"));
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "ataa_report_instalments_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM "ataa_report_refresh"(array(SELECT DISTINCT a."case_id" FROM "case_aid" a JOIN "removed" i ON i."id" = a."instalment_id"));
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "ataa_report_instalments_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	"changed" uuid[] := array(
		SELECT DISTINCT a."case_id" FROM "case_aid" a
		WHERE a."instalment_id" IN (
			SELECT n."id" FROM "added" n JOIN "removed" o ON o."id" = n."id"
			WHERE (o."status" = 'delivered') IS DISTINCT FROM (n."status" = 'delivered') OR o."fund_id" IS DISTINCT FROM n."fund_id"
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
-- A table emptied at once: everything summed again.
CREATE FUNCTION "ataa_report_rebuild"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM "report_case_figures";
	DELETE FROM "report_figures";
	PERFORM "ataa_report_refresh"(array(SELECT "id" FROM "cases"));
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "cases_report_added" AFTER INSERT ON "cases" REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_report_cases_added"();
--> statement-breakpoint
CREATE TRIGGER "cases_report_changed" AFTER UPDATE ON "cases" REFERENCING OLD TABLE AS "removed" NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_report_cases_changed"();
--> statement-breakpoint
CREATE TRIGGER "cases_report_removed" AFTER DELETE ON "cases" REFERENCING OLD TABLE AS "removed" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_report_cases_removed"();
--> statement-breakpoint
CREATE TRIGGER "cases_report_rebuild" AFTER TRUNCATE ON "cases" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_report_rebuild"();
--> statement-breakpoint
CREATE TRIGGER "case_studies_report_added" AFTER INSERT ON "case_studies" REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_report_rows_added"();
--> statement-breakpoint
CREATE TRIGGER "case_studies_report_changed" AFTER UPDATE ON "case_studies" REFERENCING OLD TABLE AS "removed" NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_report_rows_changed"();
--> statement-breakpoint
CREATE TRIGGER "case_studies_report_removed" AFTER DELETE ON "case_studies" REFERENCING OLD TABLE AS "removed" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_report_rows_removed"();
--> statement-breakpoint
CREATE TRIGGER "case_studies_report_rebuild" AFTER TRUNCATE ON "case_studies" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_report_rebuild"();
--> statement-breakpoint
CREATE TRIGGER "case_decisions_report_added" AFTER INSERT ON "case_decisions" REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_report_rows_added"();
--> statement-breakpoint
CREATE TRIGGER "case_decisions_report_changed" AFTER UPDATE ON "case_decisions" REFERENCING OLD TABLE AS "removed" NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_report_rows_changed"();
--> statement-breakpoint
CREATE TRIGGER "case_decisions_report_removed" AFTER DELETE ON "case_decisions" REFERENCING OLD TABLE AS "removed" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_report_rows_removed"();
--> statement-breakpoint
CREATE TRIGGER "case_decisions_report_rebuild" AFTER TRUNCATE ON "case_decisions" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_report_rebuild"();
--> statement-breakpoint
CREATE TRIGGER "case_aid_report_added" AFTER INSERT ON "case_aid" REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_report_rows_added"();
--> statement-breakpoint
CREATE TRIGGER "case_aid_report_changed" AFTER UPDATE ON "case_aid" REFERENCING OLD TABLE AS "removed" NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_report_rows_changed"();
--> statement-breakpoint
CREATE TRIGGER "case_aid_report_removed" AFTER DELETE ON "case_aid" REFERENCING OLD TABLE AS "removed" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_report_rows_removed"();
--> statement-breakpoint
CREATE TRIGGER "case_aid_report_rebuild" AFTER TRUNCATE ON "case_aid" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_report_rebuild"();
--> statement-breakpoint
CREATE TRIGGER "aid_instalments_report_added" AFTER INSERT ON "aid_instalments" REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_report_instalments_added"();
--> statement-breakpoint
CREATE TRIGGER "aid_instalments_report_changed" AFTER UPDATE ON "aid_instalments" REFERENCING OLD TABLE AS "removed" NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_report_instalments_changed"();
--> statement-breakpoint
CREATE TRIGGER "aid_instalments_report_removed" AFTER DELETE ON "aid_instalments" REFERENCING OLD TABLE AS "removed" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_report_instalments_removed"();
--> statement-breakpoint
CREATE TRIGGER "aid_instalments_report_rebuild" AFTER TRUNCATE ON "aid_instalments" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_report_rebuild"();
--> statement-breakpoint
-- The figures of the records already there.
SELECT "ataa_report_refresh"(array(SELECT "id" FROM "cases"));
