PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_mail_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`to_email` text NOT NULL,
	`subject` text NOT NULL,
	`text_body` text NOT NULL,
	`html_body` text,
	`status` text DEFAULT 'queued' NOT NULL,
	`provider_message_id` text,
	`created_at` integer NOT NULL,
	`sent_at` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_error` text,
	CONSTRAINT "mail_outbox_status_valid" CHECK(status IN ('queued', 'sending', 'sent', 'failed'))
);
--> statement-breakpoint
INSERT INTO `__new_mail_outbox`("id", "to_email", "subject", "text_body", "html_body", "status", "provider_message_id", "created_at", "sent_at", "attempts", "next_attempt_at", "last_error") SELECT "id", "to_email", "subject", "text_body", "html_body", "status", "provider_message_id", "created_at", "sent_at", 0, "created_at", NULL FROM `mail_outbox`;--> statement-breakpoint
DROP TABLE `mail_outbox`;--> statement-breakpoint
ALTER TABLE `__new_mail_outbox` RENAME TO `mail_outbox`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `mail_outbox_created_idx` ON `mail_outbox` (`created_at`);--> statement-breakpoint
CREATE INDEX `mail_outbox_due_idx` ON `mail_outbox` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `mail_outbox_to_idx` ON `mail_outbox` (`to_email`,`created_at`);