ALTER TABLE "case_aid" DROP CONSTRAINT "case_aid_amount_positive";--> statement-breakpoint
DROP INDEX "case_aid_instalment_unique";--> statement-breakpoint
ALTER TABLE "case_aid" ADD COLUMN "corrects_id" integer;--> statement-breakpoint
ALTER TABLE "case_aid" ADD CONSTRAINT "case_aid_corrects_id_case_aid_id_fk" FOREIGN KEY ("corrects_id") REFERENCES "public"."case_aid"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "case_aid_instalment_idx" ON "case_aid" USING btree ("instalment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "case_aid_corrects_unique" ON "case_aid" USING btree ("corrects_id");--> statement-breakpoint
ALTER TABLE "case_aid" ADD CONSTRAINT "case_aid_amount_positive" CHECK (("case_aid"."corrects_id" is null and "case_aid"."amount" > 0) or ("case_aid"."corrects_id" is not null and "case_aid"."amount" < 0));

--> statement-breakpoint
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
