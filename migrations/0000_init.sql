CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`actor_id` text,
	`action` text NOT NULL,
	`target_type` text,
	`target_id` text,
	`ip_address` text,
	`details` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `audit_log_created_idx` ON `audit_log` (`created_at`);--> statement-breakpoint
CREATE INDEX `audit_log_actor_idx` ON `audit_log` (`actor_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `audit_log_target_idx` ON `audit_log` (`target_type`,`target_id`);--> statement-breakpoint
CREATE INDEX `audit_log_action_idx` ON `audit_log` (`action`,`created_at`);--> statement-breakpoint
CREATE TABLE `auth_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`purpose` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "auth_tokens_purpose_valid" CHECK(purpose IN ('email_confirmation', 'password_reset', 'invite'))
);
--> statement-breakpoint
CREATE INDEX `auth_tokens_user_idx` ON `auth_tokens` (`user_id`,`purpose`);--> statement-breakpoint
CREATE INDEX `auth_tokens_expires_idx` ON `auth_tokens` (`expires_at`);--> statement-breakpoint
CREATE TABLE `chats` (
	`consultation_id` text PRIMARY KEY NOT NULL,
	`doctor_id` text NOT NULL,
	`patient_id` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`consultation_id`) REFERENCES `consultations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`doctor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`patient_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "chats_status_valid" CHECK(status IN ('active', 'closed'))
);
--> statement-breakpoint
CREATE INDEX `chats_doctor_idx` ON `chats` (`doctor_id`,`status`);--> statement-breakpoint
CREATE INDEX `chats_patient_idx` ON `chats` (`patient_id`,`status`);--> statement-breakpoint
CREATE TABLE `consultation_files` (
	`id` text PRIMARY KEY NOT NULL,
	`consultation_id` text NOT NULL,
	`uploader_id` text NOT NULL,
	`kind` text NOT NULL,
	`storage_key` text NOT NULL,
	`content_type` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`created_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`consultation_id`) REFERENCES `consultations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`uploader_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "consultation_files_kind_valid" CHECK(kind IN ('photo', 'chat_image')),
	CONSTRAINT "consultation_files_content_type_valid" CHECK(content_type IN ('image/jpeg', 'image/png', 'image/webp')),
	CONSTRAINT "consultation_files_size_range" CHECK("consultation_files"."size_bytes" BETWEEN 1 AND 5242880)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `consultation_files_storage_key_unique` ON `consultation_files` (`storage_key`);--> statement-breakpoint
CREATE INDEX `consultation_files_consultation_idx` ON `consultation_files` (`consultation_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `consultation_files_uploader_idx` ON `consultation_files` (`uploader_id`);--> statement-breakpoint
CREATE TABLE `consultations` (
	`id` text PRIMARY KEY NOT NULL,
	`patient_id` text NOT NULL,
	`doctor_id` text,
	`status` text NOT NULL,
	`priority` text DEFAULT 'normal' NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`main_concern` text DEFAULT '' NOT NULL,
	`medical_history` text DEFAULT '' NOT NULL,
	`additional_comments` text DEFAULT '' NOT NULL,
	`requested_doctor_code` text,
	`accepted_at` integer,
	`payment_deadline_at` integer,
	`started_at` integer,
	`completed_at` integer,
	`cancelled_at` integer,
	`observations` text,
	`diagnosis` text,
	`treatment_plan` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`patient_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`doctor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "consultations_status_valid" CHECK(status IN ('awaiting_assets', 'pending', 'accepted_awaiting_payment', 'in_progress', 'completed', 'cancelled')),
	CONSTRAINT "consultations_priority_valid" CHECK(priority IN ('normal', 'high', 'urgent')),
	CONSTRAINT "consultations_title_length" CHECK(length("consultations"."title") <= 100 AND ("consultations"."status" = 'awaiting_assets' OR length("consultations"."title") >= 1)),
	CONSTRAINT "consultations_main_concern_present" CHECK("consultations"."status" = 'awaiting_assets' OR length(trim("consultations"."main_concern")) > 0),
	CONSTRAINT "consultations_doctor_matches_status" CHECK(("consultations"."status" IN ('awaiting_assets', 'pending') AND "consultations"."doctor_id" IS NULL) OR "consultations"."status" IN ('cancelled') OR ("consultations"."status" IN ('accepted_awaiting_payment', 'in_progress', 'completed') AND "consultations"."doctor_id" IS NOT NULL))
);
--> statement-breakpoint
CREATE INDEX `consultations_patient_created_idx` ON `consultations` (`patient_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `consultations_patient_status_idx` ON `consultations` (`patient_id`,`status`);--> statement-breakpoint
CREATE INDEX `consultations_doctor_status_idx` ON `consultations` (`doctor_id`,`status`);--> statement-breakpoint
CREATE INDEX `consultations_doctor_created_idx` ON `consultations` (`doctor_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `consultations_doctor_completed_idx` ON `consultations` (`doctor_id`,`completed_at`);--> statement-breakpoint
CREATE INDEX `consultations_queue_idx` ON `consultations` (`status`,`priority`,`created_at`);--> statement-breakpoint
CREATE INDEX `consultations_created_idx` ON `consultations` (`created_at`);--> statement-breakpoint
CREATE INDEX `consultations_payment_deadline_idx` ON `consultations` (`payment_deadline_at`);--> statement-breakpoint
CREATE TABLE `contact_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`subject` text NOT NULL,
	`message` text NOT NULL,
	`created_at` integer NOT NULL,
	`read_at` integer,
	`read_by` text,
	FOREIGN KEY (`read_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `contact_messages_created_idx` ON `contact_messages` (`created_at`);--> statement-breakpoint
CREATE INDEX `contact_messages_read_idx` ON `contact_messages` (`read_at`);--> statement-breakpoint
CREATE TABLE `doctor_registrations` (
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
	`status` text DEFAULT 'pending' NOT NULL,
	`created_at` integer NOT NULL,
	`reviewed_by` text,
	`reviewed_at` integer,
	`rejection_reason` text,
	FOREIGN KEY (`reviewed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "doctor_registrations_status_valid" CHECK(status IN ('pending', 'approved', 'rejected')),
	CONSTRAINT "doctor_registrations_experience_range" CHECK("doctor_registrations"."experience_years" >= 0),
	CONSTRAINT "doctor_registrations_licence_size" CHECK("doctor_registrations"."licence_size_bytes" BETWEEN 1 AND 10485760),
	CONSTRAINT "doctor_registrations_licence_type" CHECK(licence_content_type IN ('application/pdf', 'image/jpeg', 'image/png')),
	CONSTRAINT "doctor_registrations_review_complete" CHECK("doctor_registrations"."status" = 'pending' OR ("doctor_registrations"."reviewed_by" IS NOT NULL AND "doctor_registrations"."reviewed_at" IS NOT NULL))
);
--> statement-breakpoint
CREATE INDEX `doctor_registrations_status_idx` ON `doctor_registrations` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `doctor_registrations_created_idx` ON `doctor_registrations` (`created_at`);--> statement-breakpoint
CREATE INDEX `doctor_registrations_email_idx` ON `doctor_registrations` (`email`);--> statement-breakpoint
CREATE TABLE `doctors` (
	`user_id` text PRIMARY KEY NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`specialty` text DEFAULT 'Dermatologist' NOT NULL,
	`doctor_code` text NOT NULL,
	`licence_number` text,
	`licence_expires_on` text,
	`licence_file_key` text,
	`experience_years` integer,
	`profile_picture_key` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "doctors_status_valid" CHECK(status IN ('active', 'inactive')),
	CONSTRAINT "doctors_experience_range" CHECK("doctors"."experience_years" IS NULL OR "doctors"."experience_years" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `doctors_doctor_code_unique` ON `doctors` (`doctor_code`);--> statement-breakpoint
CREATE INDEX `doctors_status_idx` ON `doctors` (`status`);--> statement-breakpoint
CREATE TABLE `mail_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`to_email` text NOT NULL,
	`subject` text NOT NULL,
	`text_body` text NOT NULL,
	`html_body` text,
	`status` text DEFAULT 'queued' NOT NULL,
	`provider_message_id` text,
	`created_at` integer NOT NULL,
	`sent_at` integer,
	CONSTRAINT "mail_outbox_status_valid" CHECK(status IN ('queued', 'sent', 'failed'))
);
--> statement-breakpoint
CREATE INDEX `mail_outbox_created_idx` ON `mail_outbox` (`created_at`);--> statement-breakpoint
CREATE INDEX `mail_outbox_to_idx` ON `mail_outbox` (`to_email`,`created_at`);--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`consultation_id` text,
	`link` text,
	`is_read` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`consultation_id`) REFERENCES `consultations`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "notifications_is_read_bool" CHECK(is_read IN (0, 1))
);
--> statement-breakpoint
CREATE INDEX `notifications_user_idx` ON `notifications` (`user_id`,`is_read`,`created_at`);--> statement-breakpoint
CREATE TABLE `oauth_accounts` (
	`provider` text NOT NULL,
	`provider_user_id` text NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`provider`, `provider_user_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `oauth_accounts_user_idx` ON `oauth_accounts` (`user_id`);--> statement-breakpoint
CREATE TABLE `password_credentials` (
	`user_id` text PRIMARY KEY NOT NULL,
	`password_hash` text NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `patient_feedback` (
	`id` text PRIMARY KEY NOT NULL,
	`consultation_id` text NOT NULL,
	`patient_id` text NOT NULL,
	`doctor_id` text,
	`rating` integer NOT NULL,
	`feedback_message` text DEFAULT '' NOT NULL,
	`allow_contact` integer DEFAULT false NOT NULL,
	`contact_method` text,
	`contact_value` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`consultation_id`) REFERENCES `consultations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`patient_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`doctor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "patient_feedback_rating_range" CHECK("patient_feedback"."rating" BETWEEN 1 AND 5),
	CONSTRAINT "patient_feedback_contact_method_valid" CHECK("patient_feedback"."contact_method" IS NULL OR contact_method IN ('telegram', 'phone', 'email')),
	CONSTRAINT "patient_feedback_allow_contact_bool" CHECK(allow_contact IN (0, 1)),
	CONSTRAINT "patient_feedback_contact_complete" CHECK("patient_feedback"."allow_contact" = 0 OR ("patient_feedback"."contact_method" IS NOT NULL AND length(trim(coalesce("patient_feedback"."contact_value", ''))) > 0))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `patient_feedback_consultation_unique` ON `patient_feedback` (`consultation_id`);--> statement-breakpoint
CREATE INDEX `patient_feedback_doctor_idx` ON `patient_feedback` (`doctor_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `patient_feedback_patient_idx` ON `patient_feedback` (`patient_id`);--> statement-breakpoint
CREATE INDEX `patient_feedback_created_idx` ON `patient_feedback` (`created_at`);--> statement-breakpoint
CREATE TABLE `payments` (
	`id` text PRIMARY KEY NOT NULL,
	`consultation_id` text NOT NULL,
	`patient_id` text NOT NULL,
	`tx_ref` text NOT NULL,
	`provider` text NOT NULL,
	`amount_etb` integer NOT NULL,
	`currency` text DEFAULT 'ETB' NOT NULL,
	`status` text DEFAULT 'initialized' NOT NULL,
	`checkout_url` text,
	`provider_reference` text,
	`needs_admin_review` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`paid_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`consultation_id`) REFERENCES `consultations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`patient_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "payments_status_valid" CHECK(status IN ('initialized', 'paid', 'failed', 'paid_after_expiry')),
	CONSTRAINT "payments_provider_valid" CHECK(provider IN ('chapa', 'sandbox')),
	CONSTRAINT "payments_amount_positive" CHECK("payments"."amount_etb" > 0),
	CONSTRAINT "payments_review_bool" CHECK(needs_admin_review IN (0, 1))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payments_tx_ref_unique` ON `payments` (`tx_ref`);--> statement-breakpoint
CREATE INDEX `payments_consultation_idx` ON `payments` (`consultation_id`);--> statement-breakpoint
CREATE INDEX `payments_patient_idx` ON `payments` (`patient_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `payments_status_idx` ON `payments` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `payments_review_idx` ON `payments` (`needs_admin_review`);--> statement-breakpoint
CREATE TABLE `profiles` (
	`user_id` text PRIMARY KEY NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`phone` text,
	`preferred_language` text DEFAULT 'en' NOT NULL,
	`consent_terms` integer DEFAULT false NOT NULL,
	`consent_privacy` integer DEFAULT false NOT NULL,
	`consent_timestamp` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "profiles_language_valid" CHECK(preferred_language IN ('en', 'am')),
	CONSTRAINT "profiles_consent_terms_bool" CHECK(consent_terms IN (0, 1)),
	CONSTRAINT "profiles_consent_privacy_bool" CHECK(consent_privacy IN (0, 1))
);
--> statement-breakpoint
CREATE INDEX `profiles_name_idx` ON `profiles` (`last_name`,`first_name`);--> statement-breakpoint
CREATE TABLE `rate_limit_hits` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`key` text NOT NULL,
	`hit_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `rate_limit_hits_key_idx` ON `rate_limit_hits` (`key`,`hit_at`);--> statement-breakpoint
CREATE INDEX `rate_limit_hits_hit_at_idx` ON `rate_limit_hits` (`hit_at`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`user_agent` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_id_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE INDEX `sessions_expires_at_idx` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `user_roles` (
	`user_id` text PRIMARY KEY NOT NULL,
	`role` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "user_roles_role_valid" CHECK(role IN ('patient', 'doctor', 'admin'))
);
--> statement-breakpoint
CREATE INDEX `user_roles_role_idx` ON `user_roles` (`role`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`email_confirmed_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	CONSTRAINT "users_email_lower" CHECK("users"."email" = lower("users"."email"))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);