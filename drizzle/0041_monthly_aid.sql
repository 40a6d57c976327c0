ALTER TYPE "public"."case_event_kind" ADD VALUE 'aid_changed';--> statement-breakpoint
ALTER TYPE "public"."case_event_kind" ADD VALUE 'iban_changed';--> statement-breakpoint
ALTER TYPE "public"."instalment_status" ADD VALUE 'suspended';--> statement-breakpoint
CREATE TABLE "monthly_aids" (
	"decision_id" integer PRIMARY KEY NOT NULL,
	"case_id" uuid NOT NULL,
	"state" text DEFAULT 'active' NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"held_by" integer,
	"requested_by" integer,
	"restudy_on" date,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payee_accounts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payee_accounts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"case_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"iban" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"actor_id" integer,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "monthly_aids" ADD CONSTRAINT "monthly_aids_decision_id_case_decisions_id_fk" FOREIGN KEY ("decision_id") REFERENCES "public"."case_decisions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monthly_aids" ADD CONSTRAINT "monthly_aids_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monthly_aids" ADD CONSTRAINT "monthly_aids_held_by_users_id_fk" FOREIGN KEY ("held_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monthly_aids" ADD CONSTRAINT "monthly_aids_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payee_accounts" ADD CONSTRAINT "payee_accounts_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payee_accounts" ADD CONSTRAINT "payee_accounts_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "monthly_aids_case_idx" ON "monthly_aids" USING btree ("case_id");--> statement-breakpoint
CREATE INDEX "payee_accounts_case_idx" ON "payee_accounts" USING btree ("case_id","id");--> statement-breakpoint
-- custom: the reasons a monthly aid is suspended or stopped, as the family reads them; staff keep the list (/admin/reasons).
INSERT INTO "reasons" ("kind", "label", "position") VALUES
	('aid-hold', 'انتقال الأسرة إلى خارج منطقة خدمة المؤسسة', 1),
	('aid-hold', 'تحسّن دخل الأسرة بما يتجاوز حد البرنامج', 2),
	('aid-hold', 'وفاة المستفيد', 3),
	('aid-hold', 'تبيّن أن بعض بيانات الطلب غير صحيحة', 4),
	('aid-hold', 'مراجعة وضع الأسرة قبل استكمال الصرف', 5);
