ALTER TABLE `users` ADD `closed_at` integer;--> statement-breakpoint
ALTER TABLE `consultations` ADD `purge_after` integer;--> statement-breakpoint
ALTER TABLE `consultations` ADD `purged_at` integer;--> statement-breakpoint
CREATE INDEX `consultations_purge_after_idx` ON `consultations` (`purge_after`);