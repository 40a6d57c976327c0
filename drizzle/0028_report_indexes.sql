CREATE INDEX "case_aid_given_idx" ON "case_aid" USING btree ("given_on");--> statement-breakpoint
CREATE INDEX "case_decisions_created_idx" ON "case_decisions" USING btree ("created_at");