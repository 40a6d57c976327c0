CREATE TABLE "privacy_notices" (
	"version" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "privacy_notices_version_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"body" text NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_by" integer,
	"published_by_name" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "retention_register" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "retention_register_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"case_id" uuid,
	"case_reference" text NOT NULL,
	"case_type" text NOT NULL,
	"outcome" smallint NOT NULL,
	"closed_at" timestamp with time zone NOT NULL,
	"purged_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sections" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"files" integer DEFAULT 0 NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"run_by" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "consent" text;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "consent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "consent_notice_version" integer;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "purged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "privacy_notices" ADD CONSTRAINT "privacy_notices_published_by_users_id_fk" FOREIGN KEY ("published_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retention_register" ADD CONSTRAINT "retention_register_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "retention_register_purged_idx" ON "retention_register" USING btree ("purged_at");--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_consent_notice_version_privacy_notices_version_fk" FOREIGN KEY ("consent_notice_version") REFERENCES "public"."privacy_notices"("version") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_consent_values" CHECK ("cases"."consent" in ('given', 'declined'));--> statement-breakpoint
-- /privacy is a public page: a new version of the notice empties the page cache (0011_content_version.sql).
CREATE TRIGGER "privacy_notices_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "privacy_notices" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_bump_content_version"();
--> statement-breakpoint
-- The retention register is a record of destruction: its rows are never removed (as audit_log, 0012_security.sql).
CREATE FUNCTION "ataa_retention_register_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'retention_register is append-only' USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER "retention_register_append_only" BEFORE DELETE ON "retention_register" FOR EACH ROW EXECUTE FUNCTION "ataa_retention_register_append_only"();
--> statement-breakpoint
CREATE TRIGGER "retention_register_no_truncate" BEFORE TRUNCATE ON "retention_register" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_retention_register_append_only"();
