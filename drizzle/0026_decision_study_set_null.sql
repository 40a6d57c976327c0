ALTER TABLE "case_decisions" DROP CONSTRAINT "case_decisions_study_id_case_studies_id_fk";
--> statement-breakpoint
ALTER TABLE "case_decisions" ADD CONSTRAINT "case_decisions_study_id_case_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."case_studies"("id") ON DELETE set null ON UPDATE no action;