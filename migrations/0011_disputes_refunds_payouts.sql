-- Disputes, refunds through the provider, doctors' payout details and payouts (docs/decisions/0028).
CREATE TABLE `disputes` (
	`id` text PRIMARY KEY NOT NULL,
	`consultation_id` text NOT NULL,
	`patient_id` text NOT NULL,
	`doctor_id` text NOT NULL,
	`reason` text NOT NULL,
	`patient_words` text NOT NULL,
	`doctor_answer` text,
	`doctor_answered_at` integer,
	`status` text DEFAULT 'open' NOT NULL,
	`resolution` text,
	`refund_santim` integer,
	`resolution_note` text,
	`resolved_by` text,
	`resolved_at` integer,
	`last_change_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`consultation_id`) REFERENCES `consultations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`patient_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`doctor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`resolved_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "disputes_reason_valid" CHECK(reason IN ('not_helpful', 'doctor_unresponsive', 'wrong_advice', 'technical_problem', 'other')),
	CONSTRAINT "disputes_status_valid" CHECK(status IN ('open', 'resolved')),
	CONSTRAINT "disputes_resolution_valid" CHECK(resolution IN ('release', 'refund_full', 'refund_part')),
	CONSTRAINT "disputes_resolved_complete" CHECK(("disputes"."status" = 'resolved') = ("disputes"."resolution" IS NOT NULL AND "disputes"."resolved_at" IS NOT NULL)),
	CONSTRAINT "disputes_words_length" CHECK(length("disputes"."patient_words") BETWEEN 1 AND 2000)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `disputes_consultation_unique` ON `disputes` (`consultation_id`);--> statement-breakpoint
CREATE INDEX `disputes_status_idx` ON `disputes` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `disputes_doctor_idx` ON `disputes` (`doctor_id`);--> statement-breakpoint
CREATE TABLE `doctor_payout_accounts` (
	`doctor_id` text PRIMARY KEY NOT NULL,
	`bank_code` text NOT NULL,
	`bank_name` text NOT NULL,
	`account_name` text NOT NULL,
	`account_number` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`doctor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `payouts` (
	`id` text PRIMARY KEY NOT NULL,
	`doctor_id` text NOT NULL,
	`reference` text NOT NULL,
	`amount_santim` integer NOT NULL,
	`bank_code` text NOT NULL,
	`bank_name` text NOT NULL,
	`account_name` text NOT NULL,
	`account_number` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`accepted` integer DEFAULT false NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`provider_reference` text,
	`failure_reason` text,
	`requested_by` text,
	`last_checked_at` integer,
	`settled_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`doctor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`requested_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "payouts_status_valid" CHECK(status IN ('pending', 'succeeded', 'failed')),
	CONSTRAINT "payouts_accepted_bool" CHECK(accepted IN (0, 1)),
	CONSTRAINT "payouts_amount_positive" CHECK("payouts"."amount_santim" > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payouts_reference_unique` ON `payouts` (`reference`);--> statement-breakpoint
CREATE INDEX `payouts_doctor_idx` ON `payouts` (`doctor_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `payouts_one_pending` ON `payouts` (`doctor_id`) WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX `payouts_status_idx` ON `payouts` (`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `refunds` (
	`id` text PRIMARY KEY NOT NULL,
	`payment_id` text NOT NULL,
	`consultation_id` text NOT NULL,
	`reference` text NOT NULL,
	`amount_santim` integer NOT NULL,
	`reason` text NOT NULL,
	`channel` text DEFAULT 'provider' NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`accepted` integer DEFAULT false NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer,
	`provider_reference` text,
	`last_error` text,
	`note` text,
	`requested_by` text,
	`last_checked_at` integer,
	`settled_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`consultation_id`) REFERENCES `consultations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`requested_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "refunds_status_valid" CHECK(status IN ('pending', 'succeeded', 'failed')),
	CONSTRAINT "refunds_reason_valid" CHECK(reason IN ('late_payment', 'duplicate_payment', 'dispute', 'cancelled')),
	CONSTRAINT "refunds_channel_valid" CHECK(channel IN ('provider', 'outside')),
	CONSTRAINT "refunds_accepted_bool" CHECK(accepted IN (0, 1)),
	CONSTRAINT "refunds_amount_positive" CHECK("refunds"."amount_santim" > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `refunds_reference_unique` ON `refunds` (`reference`);--> statement-breakpoint
CREATE UNIQUE INDEX `refunds_one_per_payment` ON `refunds` (`payment_id`) WHERE status <> 'failed';--> statement-breakpoint
CREATE INDEX `refunds_consultation_idx` ON `refunds` (`consultation_id`);--> statement-breakpoint
CREATE INDEX `refunds_status_idx` ON `refunds` (`status`,`next_attempt_at`);--> statement-breakpoint
-- Late payments an admin marked refunded before refunds went through the provider: refunds made outside it.
INSERT INTO `refunds` (`id`, `payment_id`, `consultation_id`, `reference`, `amount_santim`, `reason`, `channel`, `status`, `accepted`, `requested_by`, `settled_at`, `created_at`, `updated_at`)
SELECT lower(hex(randomblob(16))), `id`, `consultation_id`, 'outside-' || `tx_ref`, `amount_santim`, 'late_payment', 'outside', 'succeeded', 1, `refunded_by`, `refunded_at`, `refunded_at`, `refunded_at`
FROM `payments` WHERE `status` = 'paid_after_expiry' AND `refunded_at` IS NOT NULL;
