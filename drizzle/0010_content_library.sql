CREATE TABLE "content_views" (
	"entry_id" uuid NOT NULL,
	"visitor" text NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "content_views_entry_id_visitor_pk" PRIMARY KEY("entry_id","visitor")
);
--> statement-breakpoint
ALTER TABLE "content_entries" ADD COLUMN "search" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "content_entries" ADD COLUMN "author_name" text;--> statement-breakpoint
ALTER TABLE "content_entries" ADD COLUMN "views" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "media_type" text DEFAULT 'application/pdf' NOT NULL;--> statement-breakpoint
ALTER TABLE "content_views" ADD CONSTRAINT "content_views_entry_id_content_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."content_entries"("id") ON DELETE cascade ON UPDATE no action;