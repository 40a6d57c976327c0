CREATE TABLE "institution_accounts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "institution_accounts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"user_name" text NOT NULL,
	"email" text NOT NULL,
	"mobile" text NOT NULL,
	"password_hash" text NOT NULL,
	"registration_case_id" uuid,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_sign_in_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "institution_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "account_id" integer;--> statement-breakpoint
ALTER TABLE "institution_accounts" ADD CONSTRAINT "institution_accounts_registration_case_id_cases_id_fk" FOREIGN KEY ("registration_case_id") REFERENCES "public"."cases"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "institution_sessions" ADD CONSTRAINT "institution_sessions_account_id_institution_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."institution_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "institution_accounts_user_name_unique" ON "institution_accounts" USING btree (lower("user_name"));--> statement-breakpoint
CREATE UNIQUE INDEX "institution_accounts_email_unique" ON "institution_accounts" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "institution_sessions_account_idx" ON "institution_sessions" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "institution_sessions_expires_idx" ON "institution_sessions" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_account_id_institution_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."institution_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cases_account_idx" ON "cases" USING btree ("account_id");