ALTER TABLE "cases" ADD COLUMN "household" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
-- The applicant and the family members listed, promoted for the reports (app/cases/case-store.server.ts, applicantColumns).
UPDATE "cases" SET "household" = 1 + jsonb_array_length(s."answers"->'members') FROM "case_sections" s WHERE s."case_id" = "cases"."id" AND s."section" = 'family' AND jsonb_typeof(s."answers"->'members') = 'array';
