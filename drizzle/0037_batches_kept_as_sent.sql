CREATE TYPE "public"."batch_line_state" AS ENUM('in_batch', 'paid', 'bounced', 'withdrawn');--> statement-breakpoint
CREATE TABLE "payment_batch_files" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payment_batch_files_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"batch_id" integer NOT NULL,
	"layout" text NOT NULL,
	"format" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"sha256" text NOT NULL,
	"kept_at" timestamp with time zone DEFAULT now() NOT NULL,
	"kept_by" integer
);
--> statement-breakpoint
CREATE TABLE "payment_batch_lines" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payment_batch_lines_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"batch_id" integer NOT NULL,
	"instalment_id" integer NOT NULL,
	"case_id" uuid NOT NULL,
	"case_reference" text NOT NULL,
	"reference" text NOT NULL,
	"payee_name" text NOT NULL,
	"iban" text NOT NULL,
	"bank_code" text NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"fund_id" integer NOT NULL,
	"aid_kind" text NOT NULL,
	"state" "batch_line_state" DEFAULT 'in_batch' NOT NULL,
	"bank_reference" text,
	"paid_on" date,
	"state_note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_batch_lines_amount" CHECK ("payment_batch_lines"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "funds" ADD COLUMN "debit_account" text;--> statement-breakpoint
ALTER TABLE "payment_batches" ADD COLUMN "debit_account" text;--> statement-breakpoint
ALTER TABLE "payment_batches" ADD COLUMN "zakat" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_batch_files" ADD CONSTRAINT "payment_batch_files_batch_id_payment_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."payment_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_batch_files" ADD CONSTRAINT "payment_batch_files_kept_by_users_id_fk" FOREIGN KEY ("kept_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_batch_lines" ADD CONSTRAINT "payment_batch_lines_batch_id_payment_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."payment_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_batch_lines" ADD CONSTRAINT "payment_batch_lines_instalment_id_aid_instalments_id_fk" FOREIGN KEY ("instalment_id") REFERENCES "public"."aid_instalments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_batch_lines" ADD CONSTRAINT "payment_batch_lines_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_batch_lines" ADD CONSTRAINT "payment_batch_lines_fund_id_funds_id_fk" FOREIGN KEY ("fund_id") REFERENCES "public"."funds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_batch_files_unique" ON "payment_batch_files" USING btree ("batch_id","layout","format");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_batch_lines_unique" ON "payment_batch_lines" USING btree ("batch_id","instalment_id");--> statement-breakpoint
CREATE INDEX "payment_batch_lines_instalment_idx" ON "payment_batch_lines" USING btree ("instalment_id");--> statement-breakpoint
-- custom: batches kept as sent (docs/decisions/017-bank-files-kept-as-sent.md): a kept bank file never changes; a batch line keeps what the bank was told, only its state moves on
CREATE OR REPLACE FUNCTION "ataa_payment_batch_files_kept"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'payment_batch_files keeps a sent file as sent' USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER "payment_batch_files_kept" BEFORE UPDATE OR DELETE ON "payment_batch_files" FOR EACH ROW EXECUTE FUNCTION "ataa_payment_batch_files_kept"();
--> statement-breakpoint
CREATE TRIGGER "payment_batch_files_no_truncate" BEFORE TRUNCATE ON "payment_batch_files" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_payment_batch_files_kept"();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "ataa_payment_batch_lines_pinned"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' THEN
		RAISE EXCEPTION 'payment_batch_lines are never deleted' USING ERRCODE = 'insufficient_privilege';
	END IF;
	IF (NEW.batch_id, NEW.instalment_id, NEW.case_id, NEW.case_reference, NEW.reference, NEW.payee_name, NEW.iban, NEW.bank_code, NEW.amount, NEW.fund_id, NEW.aid_kind, NEW.created_at)
		IS DISTINCT FROM (OLD.batch_id, OLD.instalment_id, OLD.case_id, OLD.case_reference, OLD.reference, OLD.payee_name, OLD.iban, OLD.bank_code, OLD.amount, OLD.fund_id, OLD.aid_kind, OLD.created_at) THEN
		RAISE EXCEPTION 'a payment batch line keeps what the bank was told' USING ERRCODE = 'insufficient_privilege';
	END IF;
	IF NEW.state IS DISTINCT FROM OLD.state AND NOT ((OLD.state = 'in_batch' AND NEW.state IN ('paid', 'bounced', 'withdrawn')) OR (OLD.state = 'paid' AND NEW.state = 'bounced')) THEN
		RAISE EXCEPTION 'a payment batch line cannot go from % to %', OLD.state, NEW.state USING ERRCODE = 'check_violation';
	END IF;
	RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "payment_batch_lines_pinned" BEFORE UPDATE OR DELETE ON "payment_batch_lines" FOR EACH ROW EXECUTE FUNCTION "ataa_payment_batch_lines_pinned"();
--> statement-breakpoint
-- Batches made before: their lines as the instalments hold them now (the IBAN from the bank step's answers). A bounced one had already left its batch.
INSERT INTO "payment_batch_lines" ("batch_id", "instalment_id", "case_id", "case_reference", "reference", "payee_name", "iban", "bank_code", "amount", "fund_id", "aid_kind", "state", "bank_reference", "paid_on", "created_at")
SELECT i."batch_id", i."id", i."case_id", c."reference", 'ATAA-' || i."id", c."applicant_name", coalesce(b."iban", ''), substr(coalesce(b."iban", ''), 5, 2), i."amount", i."fund_id", i."aid_kind",
	CASE WHEN i."status" = 'paid' THEN 'paid'::"batch_line_state" ELSE 'in_batch'::"batch_line_state" END, i."bank_reference", i."paid_on", i."created_at"
FROM "aid_instalments" i
JOIN "cases" c ON c."id" = i."case_id"
LEFT JOIN LATERAL (SELECT upper(replace(coalesce(s."answers"->>'Bank_No_1', s."answers"->>'iban'), ' ', '')) AS "iban" FROM "case_sections" s WHERE s."case_id" = i."case_id" AND s."section" = 'bank' LIMIT 1) b ON true
WHERE i."batch_id" IS NOT NULL;
