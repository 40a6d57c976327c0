CREATE TABLE "content_version" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"version" bigint DEFAULT 1 NOT NULL,
	CONSTRAINT "content_version_one_row" CHECK ("content_version"."id" = 1)
);
--> statement-breakpoint
INSERT INTO "content_version" ("id", "version") VALUES (1, 1);
--> statement-breakpoint
-- Raised once per statement that changes what a public page shows, in that statement's transaction;
-- listeners on `ataa_content` hear the new number when the transaction commits.
CREATE FUNCTION "ataa_bump_content_version"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	next_version bigint;
BEGIN
	UPDATE "content_version" SET "version" = "version" + 1 WHERE "id" = 1 RETURNING "version" INTO next_version;
	PERFORM pg_notify('ataa_content', next_version::text);
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "foundation_info_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "foundation_info" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_bump_content_version"();
--> statement-breakpoint
CREATE TRIGGER "intake_settings_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "intake_settings" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_bump_content_version"();
--> statement-breakpoint
CREATE TRIGGER "images_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "images" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_bump_content_version"();
--> statement-breakpoint
CREATE TRIGGER "documents_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "documents" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_bump_content_version"();
--> statement-breakpoint
-- A counted visit (the `views` column) is not an edit: it must not empty every cache.
CREATE TRIGGER "content_entries_content_version" AFTER INSERT OR DELETE OR TRUNCATE ON "content_entries" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_bump_content_version"();
--> statement-breakpoint
CREATE TRIGGER "content_entries_edit_content_version" AFTER UPDATE OF "type", "data", "position", "updated_at", "deleted_at", "search", "author_name" ON "content_entries" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_bump_content_version"();
