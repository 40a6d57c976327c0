CREATE TABLE "sms_budget" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"per_hour" integer NOT NULL,
	"per_day" integer NOT NULL,
	"per_address_hour" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "sms_budget_one_row" CHECK ("sms_budget"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "verification_codes" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "verification_codes" ADD COLUMN "queued" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "verification_codes" ADD COLUMN "sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "verification_codes" ADD COLUMN "texted" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "sms_budget" ADD CONSTRAINT "sms_budget_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;