-- A user holds a set of roles (docs/product.md#roles): each user's one role becomes their first.
ALTER TABLE "users" ADD COLUMN "roles" "user_role"[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
UPDATE "users" SET "roles" = ARRAY["role"];--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "roles" DROP DEFAULT;
