CREATE TYPE "public"."case_event_kind" AS ENUM('created', 'section_saved', 'file_added', 'file_removed', 'submitted', 'status_changed', 'internal_note', 'applicant_message', 'link_sent');--> statement-breakpoint
CREATE TYPE "public"."intake_state" AS ENUM('open', 'paused', 'closed');--> statement-breakpoint
CREATE TABLE "attachments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_id" uuid NOT NULL,
	"slot" text NOT NULL,
	"original_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"storage_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "case_events" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "case_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"case_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" integer,
	"kind" "case_event_kind" NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "case_sections" (
	"case_id" uuid NOT NULL,
	"section" text NOT NULL,
	"answers" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "case_sections_case_id_section_pk" PRIMARY KEY("case_id","section")
);
--> statement-breakpoint
CREATE TABLE "cases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"type" text NOT NULL,
	"reference" text NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"applicant_name" text NOT NULL,
	"national_id" text NOT NULL,
	"mobile" text NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"resume_token_hash" text NOT NULL,
	"id_checksum_override" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submitted_at" timestamp with time zone,
	CONSTRAINT "cases_status_range" CHECK ("cases"."status" between 1 and 6)
);
--> statement-breakpoint
CREATE TABLE "intake_settings" (
	"type" text PRIMARY KEY NOT NULL,
	"state" "intake_state" DEFAULT 'open' NOT NULL,
	"paused_notice" text NOT NULL,
	"closed_notice" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer
);
--> statement-breakpoint
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_events" ADD CONSTRAINT "case_events_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_events" ADD CONSTRAINT "case_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_sections" ADD CONSTRAINT "case_sections_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intake_settings" ADD CONSTRAINT "intake_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "attachments_case_idx" ON "attachments" USING btree ("case_id");--> statement-breakpoint
CREATE INDEX "case_events_case_idx" ON "case_events" USING btree ("case_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "cases_reference_unique" ON "cases" USING btree ("reference");--> statement-breakpoint
CREATE UNIQUE INDEX "cases_token_unique" ON "cases" USING btree ("resume_token_hash");--> statement-breakpoint
CREATE INDEX "cases_national_id_idx" ON "cases" USING btree ("national_id","type");--> statement-breakpoint
CREATE INDEX "cases_mobile_idx" ON "cases" USING btree ("mobile");--> statement-breakpoint
CREATE INDEX "cases_status_idx" ON "cases" USING btree ("status","submitted_at");