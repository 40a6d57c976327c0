CREATE TABLE "reasons" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reasons_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"label" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
INSERT INTO "reasons" ("kind", "label", "position") VALUES
	('study-reject', 'دخل المتقدم يكفي حاجته', 1),
	('study-reject', 'خارج منطقة خدمة المؤسسة', 2),
	('study-reject', 'لا تنطبق شروط البرنامج', 3),
	('study-reject', 'يتلقى المتقدم الدعم نفسه من جهة أخرى', 4),
	('study-reject', 'البيانات المقدمة غير صحيحة', 5),
	('study-reject', 'تعذّر التواصل مع المتقدم', 6);
