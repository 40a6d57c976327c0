CREATE TYPE "public"."ledger_phase" AS ENUM('pending', 'posted', 'voided');--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"transaction_id" uuid NOT NULL,
	"debit_account" text NOT NULL,
	"credit_account" text NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"phase" "ledger_phase" NOT NULL,
	"pending_id" integer,
	"corrects_id" integer,
	"value_date" date NOT NULL,
	"case_id" uuid,
	"instalment_id" integer,
	"decision_id" integer,
	"batch_id" integer,
	"fund_id" integer,
	"actor_id" integer,
	"reason" text DEFAULT '' NOT NULL,
	"screen" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_amount" CHECK ("ledger_entries"."amount" > 0),
	CONSTRAINT "ledger_entries_accounts" CHECK ("ledger_entries"."debit_account" <> "ledger_entries"."credit_account"),
	CONSTRAINT "ledger_entries_phase" CHECK (("ledger_entries"."phase" = 'pending' and "ledger_entries"."pending_id" is null) or ("ledger_entries"."phase" = 'voided' and "ledger_entries"."pending_id" is not null) or "ledger_entries"."phase" = 'posted')
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_pending_id_ledger_entries_id_fk" FOREIGN KEY ("pending_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_corrects_id_ledger_entries_id_fk" FOREIGN KEY ("corrects_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_instalment_id_aid_instalments_id_fk" FOREIGN KEY ("instalment_id") REFERENCES "public"."aid_instalments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_decision_id_case_decisions_id_fk" FOREIGN KEY ("decision_id") REFERENCES "public"."case_decisions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_batch_id_payment_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."payment_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_fund_id_funds_id_fk" FOREIGN KEY ("fund_id") REFERENCES "public"."funds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_entries_transaction_idx" ON "ledger_entries" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_instalment_idx" ON "ledger_entries" USING btree ("instalment_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_case_idx" ON "ledger_entries" USING btree ("case_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_fund_idx" ON "ledger_entries" USING btree ("fund_id","phase");--> statement-breakpoint
CREATE INDEX "ledger_entries_debit_idx" ON "ledger_entries" USING btree ("debit_account");--> statement-breakpoint
CREATE INDEX "ledger_entries_credit_idx" ON "ledger_entries" USING btree ("credit_account");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_pending_unique" ON "ledger_entries" USING btree ("pending_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_corrects_unique" ON "ledger_entries" USING btree ("corrects_id");--> statement-breakpoint
-- custom: ledger_entries is append-only (docs/decisions/018-append-only-ledger.md), as case_aid is
-- (drizzle/0037_case_aid_append_only.sql, `ataa_append_only`): retention alone may blank a reason
-- and delete an entry written more than 10 years ago.
CREATE TRIGGER "ledger_entries_append_only" BEFORE UPDATE OR DELETE ON "ledger_entries" FOR EACH ROW EXECUTE FUNCTION "ataa_append_only"('reason');
--> statement-breakpoint
CREATE TRIGGER "ledger_entries_no_truncate" BEFORE TRUNCATE ON "ledger_entries" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_append_only"();
--> statement-breakpoint
-- custom: a posting or a void resolves a pending transfer of the same accounts (a void its whole
-- amount, a posting at most it); a correction reverses a posted transfer (its accounts swapped, at
-- most its amount). Each is refused otherwise; the unique indexes keep each resolved and corrected once.
CREATE FUNCTION "ataa_ledger_entry_checked"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	"named" "ledger_entries";
BEGIN
	IF NEW."pending_id" IS NOT NULL THEN
		SELECT * INTO "named" FROM "ledger_entries" WHERE "id" = NEW."pending_id";
		IF NOT FOUND OR "named"."phase" <> 'pending' OR "named"."debit_account" <> NEW."debit_account" OR "named"."credit_account" <> NEW."credit_account"
			OR NEW."amount" > "named"."amount" OR (NEW."phase" = 'voided' AND NEW."amount" <> "named"."amount") THEN
			RAISE EXCEPTION 'ledger_entries: entry % does not resolve pending transfer %', NEW."phase", NEW."pending_id" USING ERRCODE = 'check_violation';
		END IF;
	END IF;
	IF NEW."corrects_id" IS NOT NULL THEN
		SELECT * INTO "named" FROM "ledger_entries" WHERE "id" = NEW."corrects_id";
		IF NOT FOUND OR "named"."phase" <> 'posted' OR NEW."phase" <> 'posted' OR "named"."debit_account" <> NEW."credit_account" OR "named"."credit_account" <> NEW."debit_account"
			OR NEW."amount" > "named"."amount" THEN
			RAISE EXCEPTION 'ledger_entries: entry does not reverse posted transfer %', NEW."corrects_id" USING ERRCODE = 'check_violation';
		END IF;
	END IF;
	RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "ledger_entries_checked" BEFORE INSERT ON "ledger_entries" FOR EACH ROW EXECUTE FUNCTION "ataa_ledger_entry_checked"();
--> statement-breakpoint
-- custom: the opening entries of instalments that have none (those before this ledger; and
-- scripts/bench-aid.ts's, written in bulk): each commits its amount of its fund on its decision's day
-- (pending); a paid or delivered one is posted on its day, a cancelled one voided, as
-- app/aid/ledger.server.ts writes them for new ones. A payment reopened before this ledger left no
-- row behind (docs/decisions/018-append-only-ledger.md): nothing is invented for it.
CREATE FUNCTION "ataa_ledger_opening_entries"() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
	"written" integer;
BEGIN
	CREATE TEMPORARY TABLE "ledger_opened" ON COMMIT DROP AS
	SELECT i."id" AS "instalment_id" FROM "aid_instalments" i WHERE NOT EXISTS (SELECT 1 FROM "ledger_entries" e WHERE e."instalment_id" = i."id");
	INSERT INTO "ledger_entries" ("transaction_id", "debit_account", "credit_account", "amount", "phase", "value_date", "case_id", "instalment_id", "decision_id", "fund_id", "actor_id", "reason", "screen")
	SELECT gen_random_uuid(), 'fund:' || i."fund_id", 'family:' || i."case_id", i."amount", 'pending', (d."created_at" AT TIME ZONE 'Asia/Riyadh')::date,
		i."case_id", i."id", i."decision_id", i."fund_id", d."decider_id", 'قيد افتتاحي: اعتماد سابق لدفتر القيود', 'opening'
	FROM "aid_instalments" i JOIN "case_decisions" d ON d."id" = i."decision_id" JOIN "ledger_opened" o ON o."instalment_id" = i."id"
	ORDER BY i."id";
	GET DIAGNOSTICS "written" = ROW_COUNT;
	INSERT INTO "ledger_entries" ("transaction_id", "debit_account", "credit_account", "amount", "phase", "pending_id", "value_date", "case_id", "instalment_id", "decision_id", "batch_id", "fund_id", "actor_id", "reason", "screen")
	SELECT p."transaction_id", p."debit_account", p."credit_account", p."amount", CASE WHEN i."status" = 'cancelled' THEN 'voided' ELSE 'posted' END::"ledger_phase", p."id",
		coalesce(i."paid_on", (i."updated_at" AT TIME ZONE 'Asia/Riyadh')::date), p."case_id", p."instalment_id", p."decision_id", i."batch_id", p."fund_id", coalesce(i."recorded_by", p."actor_id"),
		'قيد افتتاحي: صرف أو إلغاء سابق لدفتر القيود', 'opening'
	FROM "ledger_entries" p JOIN "aid_instalments" i ON i."id" = p."instalment_id" JOIN "ledger_opened" o ON o."instalment_id" = i."id"
	WHERE p."phase" = 'pending' AND i."status" IN ('paid', 'delivered', 'cancelled')
	ORDER BY p."id";
	DROP TABLE "ledger_opened";
	RETURN "written";
END
$$;
--> statement-breakpoint
SELECT "ataa_ledger_opening_entries"();
