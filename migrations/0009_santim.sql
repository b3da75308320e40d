-- Amounts in santim (1 birr = 100 santim): amount_etb becomes amount_santim. Hand-fixed copy step:
-- drizzle-kit copied the renamed column from the old table by its new name.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_payments` (
	`id` text PRIMARY KEY NOT NULL,
	`consultation_id` text NOT NULL,
	`patient_id` text NOT NULL,
	`tx_ref` text NOT NULL,
	`provider` text NOT NULL,
	`amount_santim` integer NOT NULL,
	`currency` text DEFAULT 'ETB' NOT NULL,
	`status` text DEFAULT 'initialized' NOT NULL,
	`checkout_url` text,
	`provider_reference` text,
	`needs_admin_review` integer DEFAULT false NOT NULL,
	`review_reason` text,
	`provider_answer` text,
	`refunded_at` integer,
	`refunded_by` text,
	`created_at` integer NOT NULL,
	`paid_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`consultation_id`) REFERENCES `consultations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`patient_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`refunded_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "payments_status_valid" CHECK(status IN ('initialized', 'paid', 'failed', 'paid_after_expiry')),
	CONSTRAINT "payments_provider_valid" CHECK(provider IN ('chapa', 'sandbox')),
	CONSTRAINT "payments_amount_positive" CHECK("__new_payments"."amount_santim" > 0),
	CONSTRAINT "payments_review_bool" CHECK(needs_admin_review IN (0, 1)),
	CONSTRAINT "payments_review_reason_valid" CHECK(review_reason IN ('open_too_long', 'provider_disagrees', 'provider_status')),
	CONSTRAINT "payments_refund_complete" CHECK(("__new_payments"."refunded_at" IS NULL) = ("__new_payments"."refunded_by" IS NULL))
);
--> statement-breakpoint
INSERT INTO `__new_payments`("id", "consultation_id", "patient_id", "tx_ref", "provider", "amount_santim", "currency", "status", "checkout_url", "provider_reference", "needs_admin_review", "review_reason", "provider_answer", "refunded_at", "refunded_by", "created_at", "paid_at", "updated_at") SELECT "id", "consultation_id", "patient_id", "tx_ref", "provider", "amount_etb" * 100, "currency", "status", "checkout_url", "provider_reference", "needs_admin_review", "review_reason", "provider_answer", "refunded_at", "refunded_by", "created_at", "paid_at", "updated_at" FROM `payments`;--> statement-breakpoint
DROP TABLE `payments`;--> statement-breakpoint
ALTER TABLE `__new_payments` RENAME TO `payments`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `payments_tx_ref_unique` ON `payments` (`tx_ref`);--> statement-breakpoint
CREATE INDEX `payments_consultation_idx` ON `payments` (`consultation_id`);--> statement-breakpoint
CREATE INDEX `payments_patient_idx` ON `payments` (`patient_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `payments_status_idx` ON `payments` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `payments_review_idx` ON `payments` (`needs_admin_review`);