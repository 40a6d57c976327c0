CREATE TABLE "fund_receipts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "fund_receipts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"series" text NOT NULL,
	"year" integer NOT NULL,
	"seq" integer NOT NULL,
	"received_on" date NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"fund_id" integer NOT NULL,
	"from_fund_id" integer,
	"source" text NOT NULL,
	"donor" text DEFAULT '' NOT NULL,
	"programme" text,
	"condition" text DEFAULT '' NOT NULL,
	"bank_reference" text DEFAULT '' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"recorded_by" integer NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fund_receipts_amount" CHECK ("fund_receipts"."amount" > 0),
	CONSTRAINT "fund_receipts_transfer" CHECK (("fund_receipts"."series" = 'م') = ("fund_receipts"."from_fund_id" is not null) and ("fund_receipts"."from_fund_id" is null or "fund_receipts"."from_fund_id" <> "fund_receipts"."fund_id"))
);
--> statement-breakpoint
CREATE TABLE "fund_settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"general_overdraft" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "fund_settings_one_row" CHECK ("fund_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "voucher_numbers" (
	"series" text NOT NULL,
	"year" integer NOT NULL,
	"last" integer NOT NULL,
	CONSTRAINT "voucher_numbers_series_year_pk" PRIMARY KEY("series","year")
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "receipt_id" integer;--> statement-breakpoint
ALTER TABLE "fund_receipts" ADD CONSTRAINT "fund_receipts_fund_id_funds_id_fk" FOREIGN KEY ("fund_id") REFERENCES "public"."funds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fund_receipts" ADD CONSTRAINT "fund_receipts_from_fund_id_funds_id_fk" FOREIGN KEY ("from_fund_id") REFERENCES "public"."funds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fund_receipts" ADD CONSTRAINT "fund_receipts_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fund_settings" ADD CONSTRAINT "fund_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "fund_receipts_number" ON "fund_receipts" USING btree ("series","year","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "fund_receipts_bank_reference" ON "fund_receipts" USING btree ("bank_reference") WHERE "fund_receipts"."bank_reference" <> '';--> statement-breakpoint
CREATE INDEX "fund_receipts_fund_idx" ON "fund_receipts" USING btree ("fund_id");--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_receipt_id_fund_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "public"."fund_receipts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_entries_receipt_idx" ON "ledger_entries" USING btree ("receipt_id");--> statement-breakpoint
-- custom: a receipt is never changed or removed (docs/decisions/019-money-in.md): what happens to it
-- is a new ledger entry naming it, as every money record (drizzle/0038_closed_periods.sql).
CREATE TRIGGER "fund_receipts_append_only" BEFORE UPDATE OR DELETE ON "fund_receipts" FOR EACH ROW EXECUTE FUNCTION "ataa_append_only"();
--> statement-breakpoint
CREATE TRIGGER "fund_receipts_no_truncate" BEFORE TRUNCATE ON "fund_receipts" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_append_only"();
--> statement-breakpoint
-- custom: the one row of the funds' setting, its default keeping existing installs as they were.
INSERT INTO "fund_settings" ("id") VALUES (1) ON CONFLICT DO NOTHING;
