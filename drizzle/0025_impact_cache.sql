-- «أثرنا» is a cached public page computed from the aid ledger: any change to the ledger (a payment
-- or a delivery recorded, a bounced payment reopened, aid recorded by hand) raises the content
-- version as content edits do (0011_content_version.sql), so every instance drops its cached pages.
CREATE TRIGGER "case_aid_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "case_aid" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_bump_content_version"();
