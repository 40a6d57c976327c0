CREATE TABLE "zakat_recipients" (
	"case_id" uuid PRIMARY KEY NOT NULL,
	"applicant_name" text NOT NULL,
	"national_id" text NOT NULL,
	"kept_until" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "case_decisions" ADD COLUMN "zakat_category" text;--> statement-breakpoint
ALTER TABLE "case_studies" ADD COLUMN "zakat_category" text;--> statement-breakpoint
ALTER TABLE "case_studies" ADD COLUMN "zakat_reason" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "zakat_recipients" ADD CONSTRAINT "zakat_recipients_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- custom: the zakat categories staff keep (docs/product.md#zakat), the four the Shariah adviser names first; the
-- others are added on /admin/reasons. A study ticked eligible before categories were recorded keeps its
-- eligibility as «غير محدد», which the researcher completes by a new study before zakat is approved again;
-- an approval from a zakat fund before it names the same (docs/product.md#zakat says why not «الفقراء»).
INSERT INTO "reasons" ("kind", "label", "position") VALUES
	('zakat-category', 'الفقراء', 1),
	('zakat-category', 'المساكين', 2),
	('zakat-category', 'الغارمين', 3),
	('zakat-category', 'ابن السبيل', 4);--> statement-breakpoint
UPDATE "case_studies" SET "zakat_category" = 'غير محدد' WHERE "zakat_eligible";--> statement-breakpoint
UPDATE "case_decisions" d SET "zakat_category" = 'غير محدد' FROM "funds" f WHERE f."id" = d."fund_id" AND f."zakat" AND d."outcome" = 'approve';
