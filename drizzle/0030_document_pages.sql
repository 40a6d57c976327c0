ALTER TABLE "attachments" ADD COLUMN "pages" integer;--> statement-breakpoint
ALTER TABLE "attachments" ADD COLUMN "position" integer;--> statement-breakpoint
ALTER TABLE "attachments" ADD COLUMN "status" text DEFAULT 'ready' NOT NULL;