-- A family member saved with no answer at all (the medical case's list has no required field) is
-- no member: removed, as the schema now drops such a row (app/forms/schema.ts isBlankRow).
UPDATE "case_sections" AS "cs"
SET "answers" = jsonb_set("cs"."answers", '{members}', (
	SELECT coalesce(jsonb_agg("m"."value" ORDER BY "m"."ordinality"), '[]'::jsonb)
	FROM jsonb_array_elements("cs"."answers" -> 'members') WITH ORDINALITY AS "m"("value", "ordinality")
	WHERE jsonb_typeof("m"."value") <> 'object' OR ("m"."value" - '_key') <> '{}'::jsonb
))
WHERE "cs"."section" = 'family'
	AND jsonb_typeof("cs"."answers" -> 'members') = 'array'
	AND EXISTS (SELECT 1 FROM jsonb_array_elements("cs"."answers" -> 'members') AS "e"("value") WHERE jsonb_typeof("e"."value") = 'object' AND ("e"."value" - '_key') = '{}'::jsonb);
