CREATE TYPE "public"."decision_outcome" AS ENUM('approve', 'reject', 'return');--> statement-breakpoint
CREATE TYPE "public"."instalment_status" AS ENUM('approved', 'in_batch', 'paid', 'delivered', 'cancelled');--> statement-breakpoint
ALTER TYPE "public"."case_event_kind" ADD VALUE 'decided';--> statement-breakpoint
ALTER TYPE "public"."user_role" ADD VALUE 'approver';--> statement-breakpoint
ALTER TYPE "public"."user_role" ADD VALUE 'finance';--> statement-breakpoint
CREATE TABLE "aid_instalments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "aid_instalments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"case_id" uuid NOT NULL,
	"decision_id" integer NOT NULL,
	"fund_id" integer NOT NULL,
	"programme" text NOT NULL,
	"budget_year" integer NOT NULL,
	"seq" smallint NOT NULL,
	"due_on" date NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"aid_kind" text NOT NULL,
	"status" "instalment_status" DEFAULT 'approved' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "aid_instalments_amount" CHECK ("aid_instalments"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "budgets" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "budgets_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"programme" text NOT NULL,
	"year" integer NOT NULL,
	"fund_id" integer,
	"allocated" numeric(14, 2) NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "budgets_allocated" CHECK ("budgets"."allocated" >= 0)
);
--> statement-breakpoint
CREATE TABLE "case_decisions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "case_decisions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"case_id" uuid NOT NULL,
	"outcome" "decision_outcome" NOT NULL,
	"study_id" integer,
	"aid_kind" text,
	"amount" numeric(12, 2),
	"months" integer,
	"fund_id" integer,
	"budget_year" integer,
	"reason" text,
	"note" text DEFAULT '' NOT NULL,
	"decider_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "case_decisions_amount" CHECK ("case_decisions"."amount" is null or "case_decisions"."amount" > 0),
	CONSTRAINT "case_decisions_months" CHECK ("case_decisions"."months" is null or "case_decisions"."months" between 2 and 24),
	CONSTRAINT "case_decisions_approval" CHECK ("case_decisions"."outcome" <> 'approve' or ("case_decisions"."amount" is not null and "case_decisions"."fund_id" is not null and "case_decisions"."aid_kind" is not null and "case_decisions"."budget_year" is not null))
);
--> statement-breakpoint
CREATE TABLE "funds" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "funds_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"zakat" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cases" DROP CONSTRAINT "cases_status_range";--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "city" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "aid_instalments" ADD CONSTRAINT "aid_instalments_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "aid_instalments" ADD CONSTRAINT "aid_instalments_decision_id_case_decisions_id_fk" FOREIGN KEY ("decision_id") REFERENCES "public"."case_decisions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "aid_instalments" ADD CONSTRAINT "aid_instalments_fund_id_funds_id_fk" FOREIGN KEY ("fund_id") REFERENCES "public"."funds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budgets" ADD CONSTRAINT "budgets_fund_id_funds_id_fk" FOREIGN KEY ("fund_id") REFERENCES "public"."funds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budgets" ADD CONSTRAINT "budgets_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_decisions" ADD CONSTRAINT "case_decisions_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_decisions" ADD CONSTRAINT "case_decisions_study_id_case_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."case_studies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_decisions" ADD CONSTRAINT "case_decisions_fund_id_funds_id_fk" FOREIGN KEY ("fund_id") REFERENCES "public"."funds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_decisions" ADD CONSTRAINT "case_decisions_decider_id_users_id_fk" FOREIGN KEY ("decider_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "aid_instalments_seq" ON "aid_instalments" USING btree ("decision_id","seq");--> statement-breakpoint
CREATE INDEX "aid_instalments_case_idx" ON "aid_instalments" USING btree ("case_id");--> statement-breakpoint
CREATE INDEX "aid_instalments_budget_idx" ON "aid_instalments" USING btree ("programme","budget_year","fund_id","status");--> statement-breakpoint
CREATE INDEX "aid_instalments_due_idx" ON "aid_instalments" USING btree ("status","due_on");--> statement-breakpoint
CREATE UNIQUE INDEX "budgets_unique" ON "budgets" USING btree ("programme","year",coalesce("fund_id", 0));--> statement-breakpoint
CREATE INDEX "case_decisions_case_idx" ON "case_decisions" USING btree ("case_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "funds_name_unique" ON "funds" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "cases_city_idx" ON "cases" USING btree ("status","city");--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_status_range" CHECK ("cases"."status" between 1 and 8);--> statement-breakpoint
-- The city the applicant gave, promoted for the committee's queue and the reports (app/cases/case-store.server.ts, applicantColumns).
UPDATE "cases" SET "city" = btrim(coalesce(s."answers"->>'city', s."answers"->>'City', '')) FROM "case_sections" s WHERE s."case_id" = "cases"."id" AND (s."answers"->>'city' IS NOT NULL OR s."answers"->>'City' IS NOT NULL);--> statement-breakpoint
-- Two funds every foundation has; staff rename them or add others (/admin/funds).
INSERT INTO "funds" ("name", "zakat") VALUES ('صندوق الزكاة', true), ('صندوق الصدقات والتبرعات العامة', false);--> statement-breakpoint
-- The reasons the committee gives an applicant it cannot help, in plain words; staff keep the list (/admin/reasons).
INSERT INTO "reasons" ("kind", "label", "position") VALUES
	('decision-reject', 'لا تنطبق على الطلب شروط البرنامج', 1),
	('decision-reject', 'دخل الأسرة أعلى من الحد الذي يدعمه البرنامج', 2),
	('decision-reject', 'لم تكتمل المستندات المطلوبة في المهلة المحددة', 3),
	('decision-reject', 'قُدِّم للأسرة دعم مماثل في الفترة الأخيرة', 4),
	('decision-reject', 'نفدت ميزانية البرنامج لهذا العام', 5);
