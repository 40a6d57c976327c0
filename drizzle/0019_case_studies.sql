CREATE TYPE "public"."study_recommendation" AS ENUM('support', 'reject', 'refer');--> statement-breakpoint
ALTER TYPE "public"."case_event_kind" ADD VALUE 'study_recorded';--> statement-breakpoint
CREATE TABLE "case_studies" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "case_studies_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"case_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"studied_on" date NOT NULL,
	"met_with" text DEFAULT '' NOT NULL,
	"housing" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"needs" text DEFAULT '' NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"recommendation" "study_recommendation" NOT NULL,
	"reject_reason" text,
	"refer_to" text DEFAULT '' NOT NULL,
	"zakat_eligible" boolean DEFAULT false NOT NULL,
	"aid_kind" text,
	"aid_amount" numeric(12, 2),
	"aid_months" integer,
	"works" text DEFAULT '' NOT NULL,
	"quote" numeric(12, 2),
	"author_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "case_studies_aid_positive" CHECK ("case_studies"."aid_amount" is null or "case_studies"."aid_amount" > 0),
	CONSTRAINT "case_studies_months" CHECK ("case_studies"."aid_months" is null or "case_studies"."aid_months" between 2 and 24)
);
--> statement-breakpoint
ALTER TABLE "case_studies" ADD CONSTRAINT "case_studies_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_studies" ADD CONSTRAINT "case_studies_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "case_studies_case_idx" ON "case_studies" USING btree ("case_id","created_at");