CREATE TABLE `session_changes` (
	`id` integer PRIMARY KEY NOT NULL,
	`count` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Rooms check their sockets' sessions in D1 before they send (docs/decisions/0012). These triggers
-- count every change that could end a session early, whoever makes it (a sign-out, housekeeping, a
-- hand in the console), so a room whose sockets were all checked at the current count, and have not
-- reached the end they were given, knows them alive without reading every session (docs/decisions/0040).
-- A session only moves its end later by being used, which needs no count.
INSERT INTO `session_changes` (`id`, `count`) VALUES (1, 0);--> statement-breakpoint
CREATE TRIGGER `session_changes_on_session_delete` AFTER DELETE ON `sessions`
BEGIN UPDATE `session_changes` SET `count` = `count` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `session_changes_on_session_update` AFTER UPDATE OF `id`, `user_id`, `expires_at`, `last_seen_at` ON `sessions`
WHEN NEW.`id` IS NOT OLD.`id` OR NEW.`user_id` IS NOT OLD.`user_id` OR NEW.`expires_at` < OLD.`expires_at` OR NEW.`last_seen_at` < OLD.`last_seen_at`
BEGIN UPDATE `session_changes` SET `count` = `count` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `session_changes_on_doctor_insert` AFTER INSERT ON `doctors`
BEGIN UPDATE `session_changes` SET `count` = `count` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `session_changes_on_doctor_delete` AFTER DELETE ON `doctors`
BEGIN UPDATE `session_changes` SET `count` = `count` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `session_changes_on_doctor_update` AFTER UPDATE OF `user_id`, `status` ON `doctors`
WHEN NEW.`user_id` IS NOT OLD.`user_id` OR NEW.`status` IS NOT OLD.`status`
BEGIN UPDATE `session_changes` SET `count` = `count` + 1 WHERE `id` = 1; END;
