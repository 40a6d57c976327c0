ALTER TYPE "public"."case_event_kind" ADD VALUE 'visit_scheduled';--> statement-breakpoint
ALTER TYPE "public"."case_event_kind" ADD VALUE 'visit_cancelled';--> statement-breakpoint
CREATE TABLE "case_visits" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "case_visits_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"case_id" uuid NOT NULL,
	"visit_on" date NOT NULL,
	"visit_at" text NOT NULL,
	"visitor_id" integer,
	"status" text DEFAULT 'planned' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "case_visits" ADD CONSTRAINT "case_visits_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_visits" ADD CONSTRAINT "case_visits_visitor_id_users_id_fk" FOREIGN KEY ("visitor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_visits" ADD CONSTRAINT "case_visits_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "case_visits_visitor_idx" ON "case_visits" USING btree ("visitor_id","status","visit_on");--> statement-breakpoint
CREATE INDEX "case_visits_case_idx" ON "case_visits" USING btree ("case_id");