-- A REPLACE of a session's row deletes the old row without firing 0016's delete trigger
-- (recursive_triggers is off), so it is counted before the insert: a row with that id already there
-- is about to be replaced. A new session (a sign-in) is not counted (docs/decisions/0040).
CREATE TRIGGER `session_changes_on_session_replace` BEFORE INSERT ON `sessions`
WHEN EXISTS (SELECT 1 FROM `sessions` WHERE `id` = NEW.`id`)
BEGIN UPDATE `session_changes` SET `count` = `count` + 1 WHERE `id` = 1; END;
