-- A planned visit is settled with its case (docs/product.md#the-social-study, issue 37 §2.9): done once
-- the case's study is recorded (app/cases/studies.server.ts), cancelled once the case leaves «جديد» and
-- «غير مكتمل» without one (studied, decided, paid, closed, rejected: whatever changed the status).
CREATE FUNCTION case_visits_settle() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE case_visits SET status = 'cancelled' WHERE case_id = NEW.id AND status = 'planned';
	RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER cases_settle_visits AFTER UPDATE OF status ON cases FOR EACH ROW
	WHEN (NEW.status NOT IN (1, 4) AND OLD.status IS DISTINCT FROM NEW.status)
	EXECUTE FUNCTION case_visits_settle();
--> statement-breakpoint
-- The rows left planned before: done when a study was recorded after they were planned, else
-- cancelled when their case has moved on.
UPDATE case_visits SET status = 'done'
	WHERE status = 'planned'
	AND EXISTS (SELECT 1 FROM case_studies WHERE case_studies.case_id = case_visits.case_id AND case_studies.created_at >= case_visits.created_at);
--> statement-breakpoint
UPDATE case_visits SET status = 'cancelled'
	FROM cases
	WHERE case_visits.case_id = cases.id AND case_visits.status = 'planned' AND cases.status NOT IN (1, 4);
