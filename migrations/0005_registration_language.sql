PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_doctor_registrations` (
	`id` text PRIMARY KEY NOT NULL,
	`full_name` text NOT NULL,
	`phone` text NOT NULL,
	`email` text NOT NULL,
	`city_country` text NOT NULL,
	`experience_years` integer NOT NULL,
	`licence_file_key` text NOT NULL,
	`licence_file_name` text NOT NULL,
	`licence_content_type` text NOT NULL,
	`licence_size_bytes` integer NOT NULL,
	`language` text DEFAULT 'en' NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`created_at` integer NOT NULL,
	`reviewed_by` text,
	`reviewed_at` integer,
	`rejection_reason` text,
	FOREIGN KEY (`reviewed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "doctor_registrations_status_valid" CHECK(status IN ('pending', 'approved', 'rejected')),
	CONSTRAINT "doctor_registrations_language_valid" CHECK(language IN ('en', 'am')),
	CONSTRAINT "doctor_registrations_experience_range" CHECK("__new_doctor_registrations"."experience_years" >= 0),
	CONSTRAINT "doctor_registrations_licence_size" CHECK("__new_doctor_registrations"."licence_size_bytes" BETWEEN 1 AND 10485760),
	CONSTRAINT "doctor_registrations_licence_type" CHECK(licence_content_type IN ('application/pdf', 'image/jpeg', 'image/png')),
	CONSTRAINT "doctor_registrations_review_complete" CHECK("__new_doctor_registrations"."status" = 'pending' OR ("__new_doctor_registrations"."reviewed_by" IS NOT NULL AND "__new_doctor_registrations"."reviewed_at" IS NOT NULL))
);
--> statement-breakpoint
INSERT INTO `__new_doctor_registrations`("id", "full_name", "phone", "email", "city_country", "experience_years", "licence_file_key", "licence_file_name", "licence_content_type", "licence_size_bytes", "language", "status", "created_at", "reviewed_by", "reviewed_at", "rejection_reason") SELECT "id", "full_name", "phone", "email", "city_country", "experience_years", "licence_file_key", "licence_file_name", "licence_content_type", "licence_size_bytes", 'en', "status", "created_at", "reviewed_by", "reviewed_at", "rejection_reason" FROM `doctor_registrations`;--> statement-breakpoint
DROP TABLE `doctor_registrations`;--> statement-breakpoint
ALTER TABLE `__new_doctor_registrations` RENAME TO `doctor_registrations`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `doctor_registrations_status_idx` ON `doctor_registrations` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `doctor_registrations_created_idx` ON `doctor_registrations` (`created_at`);--> statement-breakpoint
CREATE INDEX `doctor_registrations_email_idx` ON `doctor_registrations` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `doctor_registrations_pending_email_unique` ON `doctor_registrations` (`email`) WHERE status = 'pending';