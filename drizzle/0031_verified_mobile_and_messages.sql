ALTER TYPE "public"."case_event_kind" ADD VALUE 'mobile_verified';--> statement-breakpoint
ALTER TYPE "public"."case_event_kind" ADD VALUE 'mobile_changed';--> statement-breakpoint
ALTER TYPE "public"."case_event_kind" ADD VALUE 'message_resent';--> statement-breakpoint
ALTER TYPE "public"."case_event_kind" ADD VALUE 'reminded';--> statement-breakpoint
ALTER TYPE "public"."case_event_kind" ADD VALUE 'closed_unanswered';--> statement-breakpoint
CREATE TABLE "case_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_id" uuid,
	"event" text NOT NULL,
	"channel" text NOT NULL,
	"recipient" text NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"body" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_error" text,
	"provider" text,
	"provider_ref" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"created_by" integer
);
--> statement-breakpoint
CREATE TABLE "message_templates" (
	"event" text PRIMARY KEY NOT NULL,
	"sms" text NOT NULL,
	"email_subject" text NOT NULL,
	"email_body" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "reminder_settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"incomplete_first_days" smallint DEFAULT 3 NOT NULL,
	"incomplete_second_days" smallint DEFAULT 7 NOT NULL,
	"incomplete_close_days" smallint,
	"draft_days" smallint DEFAULT 2 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "reminder_settings_one_row" CHECK ("reminder_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "scheduler_leases" (
	"name" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verification_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"purpose" text NOT NULL,
	"subject" text NOT NULL,
	"mobile" text NOT NULL,
	"code_hash" text NOT NULL,
	"tries" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "mobile_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "mobile_verified_how" text;--> statement-breakpoint
ALTER TABLE "institution_accounts" ADD COLUMN "sign_in_code" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "case_messages" ADD CONSTRAINT "case_messages_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_messages" ADD CONSTRAINT "case_messages_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_templates" ADD CONSTRAINT "message_templates_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminder_settings" ADD CONSTRAINT "reminder_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "case_messages_case_idx" ON "case_messages" USING btree ("case_id","created_at");--> statement-breakpoint
CREATE INDEX "case_messages_due_idx" ON "case_messages" USING btree ("next_attempt_at") WHERE "case_messages"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "verification_codes_subject_idx" ON "verification_codes" USING btree ("purpose","subject","created_at");--> statement-breakpoint
CREATE INDEX "verification_codes_mobile_idx" ON "verification_codes" USING btree ("mobile","created_at");