ALTER TYPE "public"."case_event_kind" ADD VALUE 'payment_recorded';--> statement-breakpoint
ALTER TYPE "public"."case_event_kind" ADD VALUE 'payment_reopened';--> statement-breakpoint
CREATE TABLE "payment_batches" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payment_batches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"status" text DEFAULT 'open' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_on" date,
	"sent_by" integer,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "aid_instalments" ADD COLUMN "batch_id" integer;--> statement-breakpoint
ALTER TABLE "aid_instalments" ADD COLUMN "bank_reference" text;--> statement-breakpoint
ALTER TABLE "aid_instalments" ADD COLUMN "paid_on" date;--> statement-breakpoint
ALTER TABLE "aid_instalments" ADD COLUMN "recorded_by" integer;--> statement-breakpoint
ALTER TABLE "aid_instalments" ADD COLUMN "delivered_by" text;--> statement-breakpoint
ALTER TABLE "aid_instalments" ADD COLUMN "receipt" text;--> statement-breakpoint
ALTER TABLE "case_aid" ADD COLUMN "instalment_id" integer;--> statement-breakpoint
ALTER TABLE "payment_batches" ADD CONSTRAINT "payment_batches_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_batches" ADD CONSTRAINT "payment_batches_sent_by_users_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "aid_instalments" ADD CONSTRAINT "aid_instalments_batch_id_payment_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."payment_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "aid_instalments" ADD CONSTRAINT "aid_instalments_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "aid_instalments_batch_idx" ON "aid_instalments" USING btree ("batch_id");--> statement-breakpoint
CREATE UNIQUE INDEX "case_aid_instalment_unique" ON "case_aid" USING btree ("instalment_id");