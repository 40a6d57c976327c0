-- Trigram index for the staff's name search (a contains-search on 100,000 cases).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
ALTER TYPE "public"."case_event_kind" ADD VALUE 'assigned';--> statement-breakpoint
ALTER TYPE "public"."case_event_kind" ADD VALUE 'aid_recorded';--> statement-breakpoint
ALTER TYPE "public"."case_event_kind" ADD VALUE 'answers_corrected';--> statement-breakpoint
ALTER TYPE "public"."case_event_kind" ADD VALUE 'printed';--> statement-breakpoint
ALTER TYPE "public"."case_event_kind" ADD VALUE 'deleted';--> statement-breakpoint
ALTER TYPE "public"."case_event_kind" ADD VALUE 'restored';--> statement-breakpoint
ALTER TYPE "public"."case_event_kind" ADD VALUE 'notified';--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" integer,
	"action" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "case_aid" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "case_aid_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"case_id" uuid NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"kind" text NOT NULL,
	"given_on" date NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "case_aid_amount_positive" CHECK ("case_aid"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "status_changed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
UPDATE "cases" SET "status_changed_at" = coalesce("submitted_at", "created_at");--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "assigned_to" integer;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "reopened" jsonb;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "paper_intake" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "created_by" integer;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "deleted_by" integer;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "deleted_reason" text;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "search_name" text GENERATED ALWAYS AS (lower(translate(regexp_replace(applicant_name, '[\u064B-\u065F\u0670\u0640]', '', 'g'), 'أإآٱىةؤئ', 'اااايهوي'))) STORED;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_aid" ADD CONSTRAINT "case_aid_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_aid" ADD CONSTRAINT "case_aid_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "case_aid_case_idx" ON "case_aid" USING btree ("case_id");--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_assigned_to_users_id_fk" FOREIGN KEY ("assigned_to") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_deleted_by_users_id_fk" FOREIGN KEY ("deleted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cases_submitted_idx" ON "cases" USING btree ("submitted_at");--> statement-breakpoint
CREATE INDEX "cases_waiting_idx" ON "cases" USING btree ("status_changed_at");--> statement-breakpoint
CREATE INDEX "cases_assigned_idx" ON "cases" USING btree ("assigned_to","status");--> statement-breakpoint
CREATE INDEX "cases_search_name_trgm" ON "cases" USING gin ("search_name" gin_trgm_ops);