ALTER TABLE `consultations` ADD `submission_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `consultations_patient_submission_key_unique` ON `consultations` (`patient_id`,`submission_key`);