CREATE TABLE `reconciliation_differences` (
	`id` text PRIMARY KEY NOT NULL,
	`run_id` text,
	`kind` text NOT NULL,
	`subject` text NOT NULL,
	`reference` text NOT NULL,
	`consultation_id` text,
	`ours` text NOT NULL,
	`theirs` text NOT NULL,
	`ours_santim` integer,
	`theirs_santim` integer,
	`status` text DEFAULT 'open' NOT NULL,
	`resolution_note` text,
	`resolved_by` text,
	`resolved_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `reconciliation_runs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`resolved_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "reconciliation_differences_kind_valid" CHECK(kind IN ('missing_at_provider', 'missing_in_books', 'amount_differs', 'status_differs', 'balance_differs', 'charged_back')),
	CONSTRAINT "reconciliation_differences_subject_valid" CHECK(subject IN ('payment', 'refund', 'payout', 'balance')),
	CONSTRAINT "reconciliation_differences_status_valid" CHECK(status IN ('open', 'resolved')),
	CONSTRAINT "reconciliation_differences_resolved_complete" CHECK(("reconciliation_differences"."status" = 'resolved') = ("reconciliation_differences"."resolved_at" IS NOT NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reconciliation_differences_open_unique` ON `reconciliation_differences` (`kind`,`reference`) WHERE status = 'open';--> statement-breakpoint
CREATE INDEX `reconciliation_differences_status_idx` ON `reconciliation_differences` (`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `reconciliation_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`period_start` integer NOT NULL,
	`period_end` integer NOT NULL,
	`requested_by` text,
	`transactions_compared` integer DEFAULT 0 NOT NULL,
	`refunds_compared` integer DEFAULT 0 NOT NULL,
	`transfers_compared` integer DEFAULT 0 NOT NULL,
	`provider_balance_santim` integer,
	`books_balance_santim` integer,
	`differences_found` integer DEFAULT 0 NOT NULL,
	`error` text,
	`created_at` integer NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`requested_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `reconciliation_runs_created_idx` ON `reconciliation_runs` (`created_at`);--> statement-breakpoint
PRAGMA defer_foreign_keys=ON;--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_escrows` (
	`consultation_id` text PRIMARY KEY NOT NULL,
	`payment_id` text NOT NULL,
	`doctor_id` text NOT NULL,
	`amount_santim` integer NOT NULL,
	`status` text DEFAULT 'held' NOT NULL,
	`review_reason` text,
	`confirmed_at` integer,
	`released_at` integer,
	`last_change_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`consultation_id`) REFERENCES `consultations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`doctor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "escrows_status_valid" CHECK(status IN ('held', 'disputed', 'in_review', 'released', 'refunded', 'charged_back')),
	CONSTRAINT "escrows_review_reason_valid" CHECK(review_reason IN ('doctor_gone')),
	CONSTRAINT "escrows_amount_positive" CHECK("__new_escrows"."amount_santim" > 0),
	CONSTRAINT "escrows_released_complete" CHECK(("__new_escrows"."status" = 'released') = ("__new_escrows"."released_at" IS NOT NULL))
);
--> statement-breakpoint
INSERT INTO `__new_escrows`("consultation_id", "payment_id", "doctor_id", "amount_santim", "status", "review_reason", "confirmed_at", "released_at", "last_change_id", "created_at", "updated_at") SELECT "consultation_id", "payment_id", "doctor_id", "amount_santim", "status", "review_reason", "confirmed_at", "released_at", "last_change_id", "created_at", "updated_at" FROM `escrows`;--> statement-breakpoint
DROP TABLE `escrows`;--> statement-breakpoint
ALTER TABLE `__new_escrows` RENAME TO `escrows`;--> statement-breakpoint
CREATE UNIQUE INDEX `escrows_payment_unique` ON `escrows` (`payment_id`);--> statement-breakpoint
CREATE INDEX `escrows_status_idx` ON `escrows` (`status`);--> statement-breakpoint
CREATE INDEX `escrows_doctor_idx` ON `escrows` (`doctor_id`,`status`);--> statement-breakpoint
CREATE TABLE `__new_ledger_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`idempotency_key` text NOT NULL,
	`kind` text NOT NULL,
	`consultation_id` text,
	`doctor_id` text,
	`payment_id` text,
	`line_count` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`consultation_id`) REFERENCES `consultations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`doctor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "ledger_entries_kind_valid" CHECK(kind IN ('payment_captured', 'escrow_released', 'refund_started', 'refund_settled', 'refund_returned', 'payout_started', 'payout_settled', 'payout_returned', 'charge_reversed', 'provider_fee_charged')),
	CONSTRAINT "ledger_entries_line_count" CHECK("__new_ledger_entries"."line_count" >= 2)
);
--> statement-breakpoint
INSERT INTO `__new_ledger_entries`("id", "idempotency_key", "kind", "consultation_id", "doctor_id", "payment_id", "line_count", "created_at") SELECT "id", "idempotency_key", "kind", "consultation_id", "doctor_id", "payment_id", (SELECT count(*) FROM `ledger_lines` WHERE `ledger_lines`.`entry_id` = `ledger_entries`.`id`), "created_at" FROM `ledger_entries`;--> statement-breakpoint
DROP TABLE `ledger_entries`;--> statement-breakpoint
ALTER TABLE `__new_ledger_entries` RENAME TO `ledger_entries`;--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_entries_key_unique` ON `ledger_entries` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `ledger_entries_consultation_idx` ON `ledger_entries` (`consultation_id`);--> statement-breakpoint
CREATE INDEX `ledger_entries_doctor_idx` ON `ledger_entries` (`doctor_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `ledger_entries_created_idx` ON `ledger_entries` (`created_at`);--> statement-breakpoint
CREATE TABLE `__new_ledger_lines` (
	`id` text PRIMARY KEY NOT NULL,
	`entry_id` text NOT NULL,
	`account` text NOT NULL,
	`subject` text DEFAULT '' NOT NULL,
	`amount_santim` integer NOT NULL,
	FOREIGN KEY (`entry_id`) REFERENCES `ledger_entries`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "ledger_lines_account_valid" CHECK(account IN ('provider_clearing', 'provider_fees', 'escrow', 'doctor_payable', 'payouts_in_transit', 'refunds_in_transit', 'platform_revenue', 'paid_outside')),
	CONSTRAINT "ledger_lines_amount_nonzero" CHECK("__new_ledger_lines"."amount_santim" <> 0)
);
--> statement-breakpoint
INSERT INTO `__new_ledger_lines`("id", "entry_id", "account", "subject", "amount_santim") SELECT "id", "entry_id", "account", "subject", "amount_santim" FROM `ledger_lines`;--> statement-breakpoint
DROP TABLE `ledger_lines`;--> statement-breakpoint
ALTER TABLE `__new_ledger_lines` RENAME TO `ledger_lines`;--> statement-breakpoint
CREATE INDEX `ledger_lines_entry_idx` ON `ledger_lines` (`entry_id`);--> statement-breakpoint
CREATE INDEX `ledger_lines_account_idx` ON `ledger_lines` (`account`,`subject`);--> statement-breakpoint
CREATE TABLE `__new_payouts` (
	`id` text PRIMARY KEY NOT NULL,
	`doctor_id` text NOT NULL,
	`reference` text NOT NULL,
	`amount_santim` integer NOT NULL,
	`bank_code` text NOT NULL,
	`bank_name` text NOT NULL,
	`account_name` text NOT NULL,
	`account_number` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`channel` text DEFAULT 'provider' NOT NULL,
	`accepted` integer DEFAULT false NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`provider_reference` text,
	`failure_reason` text,
	`review_reason` text,
	`fee_santim` integer,
	`note` text,
	`requested_by` text,
	`last_checked_at` integer,
	`settled_at` integer,
	`last_change_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`doctor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`requested_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "payouts_status_valid" CHECK(status IN ('pending', 'succeeded', 'failed')),
	CONSTRAINT "payouts_accepted_bool" CHECK(accepted IN (0, 1)),
	CONSTRAINT "payouts_amount_positive" CHECK("__new_payouts"."amount_santim" > 0),
	CONSTRAINT "payouts_channel_valid" CHECK(channel IN ('provider', 'outside')),
	CONSTRAINT "payouts_review_reason_valid" CHECK(review_reason IN ('attempts_exhausted', 'unknown_status', 'amount_differs')),
	CONSTRAINT "payouts_fee_valid" CHECK("__new_payouts"."fee_santim" IS NULL OR "__new_payouts"."fee_santim" >= 0)
);
--> statement-breakpoint
INSERT INTO `__new_payouts`("id", "doctor_id", "reference", "amount_santim", "bank_code", "bank_name", "account_name", "account_number", "status", "accepted", "attempts", "provider_reference", "failure_reason", "requested_by", "last_checked_at", "settled_at", "last_change_id", "created_at", "updated_at") SELECT "id", "doctor_id", "reference", "amount_santim", "bank_code", "bank_name", "account_name", "account_number", "status", "accepted", "attempts", "provider_reference", "failure_reason", "requested_by", "last_checked_at", "settled_at", "last_change_id", "created_at", "updated_at" FROM `payouts`;--> statement-breakpoint
DROP TABLE `payouts`;--> statement-breakpoint
ALTER TABLE `__new_payouts` RENAME TO `payouts`;--> statement-breakpoint
CREATE UNIQUE INDEX `payouts_reference_unique` ON `payouts` (`reference`);--> statement-breakpoint
CREATE INDEX `payouts_doctor_idx` ON `payouts` (`doctor_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `payouts_one_pending` ON `payouts` (`doctor_id`) WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX `payouts_status_idx` ON `payouts` (`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `__new_refunds` (
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
	`review_reason` text,
	`note` text,
	`requested_by` text,
	`last_checked_at` integer,
	`settled_at` integer,
	`last_change_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`consultation_id`) REFERENCES `consultations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`requested_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "refunds_status_valid" CHECK(status IN ('pending', 'succeeded', 'failed')),
	CONSTRAINT "refunds_reason_valid" CHECK(reason IN ('late_payment', 'duplicate_payment', 'dispute', 'cancelled')),
	CONSTRAINT "refunds_channel_valid" CHECK(channel IN ('provider', 'outside')),
	CONSTRAINT "refunds_accepted_bool" CHECK(accepted IN (0, 1)),
	CONSTRAINT "refunds_amount_positive" CHECK("__new_refunds"."amount_santim" > 0),
	CONSTRAINT "refunds_review_reason_valid" CHECK(review_reason IN ('attempts_exhausted', 'unknown_status', 'amount_differs'))
);
--> statement-breakpoint
INSERT INTO `__new_refunds`("id", "payment_id", "consultation_id", "reference", "amount_santim", "reason", "channel", "status", "accepted", "attempts", "next_attempt_at", "provider_reference", "last_error", "note", "requested_by", "last_checked_at", "settled_at", "last_change_id", "created_at", "updated_at") SELECT "id", "payment_id", "consultation_id", "reference", "amount_santim", "reason", "channel", "status", "accepted", "attempts", "next_attempt_at", "provider_reference", "last_error", "note", "requested_by", "last_checked_at", "settled_at", "last_change_id", "created_at", "updated_at" FROM `refunds`;--> statement-breakpoint
DROP TABLE `refunds`;--> statement-breakpoint
ALTER TABLE `__new_refunds` RENAME TO `refunds`;--> statement-breakpoint
CREATE UNIQUE INDEX `refunds_reference_unique` ON `refunds` (`reference`);--> statement-breakpoint
CREATE UNIQUE INDEX `refunds_one_per_payment` ON `refunds` (`payment_id`) WHERE status <> 'failed';--> statement-breakpoint
CREATE INDEX `refunds_consultation_idx` ON `refunds` (`consultation_id`);--> statement-breakpoint
CREATE INDEX `refunds_status_idx` ON `refunds` (`status`,`next_attempt_at`);--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
-- The ledger stays append-only: the triggers of migration 0010 went with the tables they guarded.
CREATE TRIGGER `ledger_entries_no_update` BEFORE UPDATE ON `ledger_entries` BEGIN SELECT RAISE(ABORT, 'ledger_entries is append-only'); END;--> statement-breakpoint
CREATE TRIGGER `ledger_entries_no_delete` BEFORE DELETE ON `ledger_entries` BEGIN SELECT RAISE(ABORT, 'ledger_entries is append-only'); END;--> statement-breakpoint
CREATE TRIGGER `ledger_lines_no_update` BEFORE UPDATE ON `ledger_lines` BEGIN SELECT RAISE(ABORT, 'ledger_lines is append-only'); END;--> statement-breakpoint
CREATE TRIGGER `ledger_lines_no_delete` BEFORE DELETE ON `ledger_lines` BEGIN SELECT RAISE(ABORT, 'ledger_lines is append-only'); END;
