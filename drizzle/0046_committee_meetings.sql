CREATE TABLE "committee_meeting_members" (
	"meeting_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"marked_by" integer,
	"marked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "committee_meeting_members_meeting_id_user_id_pk" PRIMARY KEY("meeting_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "committee_meetings" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "committee_meetings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"held_on" date NOT NULL,
	"place" text DEFAULT '' NOT NULL,
	"online" boolean DEFAULT false NOT NULL,
	"opened_by" integer,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_by" integer,
	"closed_at" timestamp with time zone,
	"minutes" jsonb,
	CONSTRAINT "committee_meetings_closed" CHECK (("committee_meetings"."closed_at" is null) = ("committee_meetings"."minutes" is null))
);
--> statement-breakpoint
CREATE TABLE "committee_quorums" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "committee_quorums_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"programme" text,
	"quorum" smallint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "committee_quorums_quorum" CHECK ("committee_quorums"."quorum" between 1 and 50)
);
--> statement-breakpoint
ALTER TABLE "case_decisions" ADD COLUMN "meeting_id" integer;--> statement-breakpoint
ALTER TABLE "committee_meeting_members" ADD CONSTRAINT "committee_meeting_members_meeting_id_committee_meetings_id_fk" FOREIGN KEY ("meeting_id") REFERENCES "public"."committee_meetings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "committee_meeting_members" ADD CONSTRAINT "committee_meeting_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "committee_meeting_members" ADD CONSTRAINT "committee_meeting_members_marked_by_users_id_fk" FOREIGN KEY ("marked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "committee_meetings" ADD CONSTRAINT "committee_meetings_opened_by_users_id_fk" FOREIGN KEY ("opened_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "committee_meetings" ADD CONSTRAINT "committee_meetings_closed_by_users_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "committee_quorums" ADD CONSTRAINT "committee_quorums_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "committee_meetings_one_open" ON "committee_meetings" USING btree ((true)) WHERE "committee_meetings"."closed_at" is null;--> statement-breakpoint
CREATE INDEX "committee_meetings_held_idx" ON "committee_meetings" USING btree ("held_on");--> statement-breakpoint
CREATE UNIQUE INDEX "committee_quorums_unique" ON "committee_quorums" USING btree (coalesce("programme", ''));--> statement-breakpoint
ALTER TABLE "case_decisions" ADD CONSTRAINT "case_decisions_meeting_id_committee_meetings_id_fk" FOREIGN KEY ("meeting_id") REFERENCES "public"."committee_meetings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "case_decisions_meeting_idx" ON "case_decisions" USING btree ("meeting_id");--> statement-breakpoint
-- custom: a closed meeting is fixed (docs/product.md#committee-meetings). A meeting's details are never edited; the only change is closing it, once, with its minutes; it is never deleted.
CREATE FUNCTION "ataa_meeting_fixed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' OR OLD."closed_at" IS NOT NULL
		OR (OLD."held_on", OLD."place", OLD."online", OLD."opened_by", OLD."opened_at") IS DISTINCT FROM (NEW."held_on", NEW."place", NEW."online", NEW."opened_by", NEW."opened_at") THEN
		RAISE EXCEPTION 'committee_meetings: meeting % is fixed: only closing it, once, changes it', OLD."id" USING ERRCODE = 'insufficient_privilege';
	END IF;
	RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "committee_meetings_fixed" BEFORE UPDATE OR DELETE ON "committee_meetings" FOR EACH ROW EXECUTE FUNCTION "ataa_meeting_fixed"();
--> statement-breakpoint
-- custom: nothing is added to a closed meeting, nor taken from it: its members present and the decisions carrying it.
CREATE FUNCTION "ataa_meeting_open"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	"meeting" integer := CASE WHEN TG_OP = 'DELETE' THEN OLD."meeting_id" ELSE NEW."meeting_id" END;
BEGIN
	IF TG_OP = 'UPDATE' AND OLD."meeting_id" IS DISTINCT FROM NEW."meeting_id" THEN
		RAISE EXCEPTION '%: a decision''s or a member''s meeting is never changed', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
	END IF;
	IF "meeting" IS NOT NULL AND EXISTS (SELECT 1 FROM "committee_meetings" WHERE "id" = "meeting" AND "closed_at" IS NOT NULL) THEN
		RAISE EXCEPTION '%: meeting % is closed: nothing is added to it or taken from it', TG_TABLE_NAME, "meeting" USING ERRCODE = 'insufficient_privilege';
	END IF;
	RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "committee_meeting_members_open" BEFORE INSERT OR UPDATE OR DELETE ON "committee_meeting_members" FOR EACH ROW EXECUTE FUNCTION "ataa_meeting_open"();
--> statement-breakpoint
CREATE TRIGGER "case_decisions_meeting_open" BEFORE INSERT OR UPDATE OF "meeting_id" ON "case_decisions" FOR EACH ROW EXECUTE FUNCTION "ataa_meeting_open"();
