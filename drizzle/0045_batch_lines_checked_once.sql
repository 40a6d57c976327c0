ALTER TABLE "payment_batch_lines" DROP CONSTRAINT "payment_batch_lines_case_id_cases_id_fk";
--> statement-breakpoint
ALTER TABLE "payment_batch_lines" DROP CONSTRAINT "payment_batch_lines_fund_id_funds_id_fk";
--> statement-breakpoint
DROP INDEX "aid_instalments_batch_idx";--> statement-breakpoint
-- custom: a batch's lines pin their instalment's case, fund, amount and kind (docs/performance.md, a
-- batch made). Checked once a statement against the instalments, in one join, where two foreign keys
-- checked each line's case and fund one by one (about a quarter of a batch of 1,000 made): the
-- instalment's own keys hold its case and fund, and its line must agree with it. Neither the cases
-- nor the funds a line names are ever deleted while an instalment names them (its foreign keys).
CREATE FUNCTION "ataa_batch_lines_as_instalments"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF EXISTS (
		SELECT 1 FROM "added" l LEFT JOIN "aid_instalments" i ON i."id" = l."instalment_id"
		WHERE i."id" IS NULL OR (l."case_id", l."fund_id", l."amount", l."aid_kind") IS DISTINCT FROM (i."case_id", i."fund_id", i."amount", i."aid_kind")
	) THEN
		RAISE EXCEPTION 'a batch line pins its instalment''s case, fund, amount and kind' USING ERRCODE = '23503';
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "payment_batch_lines_as_instalments" AFTER INSERT ON "payment_batch_lines" REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_batch_lines_as_instalments"();
