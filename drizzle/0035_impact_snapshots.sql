CREATE TABLE "impact_snapshots" (
	"through" date PRIMARY KEY NOT NULL,
	"taken_at" timestamp with time zone DEFAULT now() NOT NULL,
	"figures" jsonb NOT NULL
);
--> statement-breakpoint
-- «أثرنا» reads its monthly snapshot, no longer the ledger (docs/product.md#our-impact): a payment no
-- longer refreshes the page (0025's trigger goes), a new snapshot does.
DROP TRIGGER "case_aid_content_version" ON "case_aid";--> statement-breakpoint
CREATE TRIGGER "impact_snapshots_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "impact_snapshots" FOR EACH STATEMENT EXECUTE FUNCTION "ataa_bump_content_version"();
