CREATE TYPE "public"."aid_proposal_state" AS ENUM('proposed', 'awaiting_second', 'approved', 'rejected', 'withdrawn');--> statement-breakpoint
ALTER TYPE "public"."case_event_kind" ADD VALUE 'aid_proposed';--> statement-breakpoint
ALTER TYPE "public"."case_event_kind" ADD VALUE 'proposal_settled';--> statement-breakpoint
CREATE TABLE "aid_proposals" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "aid_proposals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"case_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"state" "aid_proposal_state" DEFAULT 'proposed' NOT NULL,
	"aid_kind" text NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"months" integer,
	"note" text DEFAULT '' NOT NULL,
	"proposed_by" integer,
	"fund_id" integer,
	"first_approver_id" integer,
	"first_note" text DEFAULT '' NOT NULL,
	"first_approved_at" timestamp with time zone,
	"decision_id" integer,
	"reason" text,
	"settled_by" integer,
	"settled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "aid_proposals_amount" CHECK ("aid_proposals"."amount" > 0),
	CONSTRAINT "aid_proposals_months" CHECK ("aid_proposals"."months" is null or "aid_proposals"."months" between 2 and 24),
	CONSTRAINT "aid_proposals_second" CHECK ("aid_proposals"."state" <> 'awaiting_second' or ("aid_proposals"."fund_id" is not null and "aid_proposals"."first_approver_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "approval_limits" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "approval_limits_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"programme" text,
	"fund_id" integer,
	"above" numeric(12, 2) NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "approval_limits_above" CHECK ("approval_limits"."above" >= 0)
);
--> statement-breakpoint
ALTER TABLE "case_decisions" ADD COLUMN "first_approver_id" integer;--> statement-breakpoint
ALTER TABLE "aid_proposals" ADD CONSTRAINT "aid_proposals_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "aid_proposals" ADD CONSTRAINT "aid_proposals_proposed_by_users_id_fk" FOREIGN KEY ("proposed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "aid_proposals" ADD CONSTRAINT "aid_proposals_fund_id_funds_id_fk" FOREIGN KEY ("fund_id") REFERENCES "public"."funds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "aid_proposals" ADD CONSTRAINT "aid_proposals_first_approver_id_users_id_fk" FOREIGN KEY ("first_approver_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "aid_proposals" ADD CONSTRAINT "aid_proposals_decision_id_case_decisions_id_fk" FOREIGN KEY ("decision_id") REFERENCES "public"."case_decisions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "aid_proposals" ADD CONSTRAINT "aid_proposals_settled_by_users_id_fk" FOREIGN KEY ("settled_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_limits" ADD CONSTRAINT "approval_limits_fund_id_funds_id_fk" FOREIGN KEY ("fund_id") REFERENCES "public"."funds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_limits" ADD CONSTRAINT "approval_limits_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "aid_proposals_one_open" ON "aid_proposals" USING btree ("case_id") WHERE "aid_proposals"."state" in ('proposed', 'awaiting_second');--> statement-breakpoint
CREATE INDEX "aid_proposals_state_idx" ON "aid_proposals" USING btree ("state","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "approval_limits_unique" ON "approval_limits" USING btree (coalesce("programme", ''),coalesce("fund_id", 0));--> statement-breakpoint
ALTER TABLE "case_decisions" ADD CONSTRAINT "case_decisions_first_approver_id_users_id_fk" FOREIGN KEY ("first_approver_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;