CREATE TABLE `telegram_link_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `telegram_link_tokens_user_idx` ON `telegram_link_tokens` (`user_id`);--> statement-breakpoint
CREATE INDEX `telegram_link_tokens_expires_idx` ON `telegram_link_tokens` (`expires_at`);--> statement-breakpoint
CREATE TABLE `telegram_links` (
	`user_id` text PRIMARY KEY NOT NULL,
	`chat_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`wants_new_requests` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "telegram_links_wants_new_requests_bool" CHECK(wants_new_requests IN (0, 1))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `telegram_links_chat_id_unique` ON `telegram_links` (`chat_id`);--> statement-breakpoint
CREATE TABLE `telegram_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`consultation_id` text,
	`link` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`created_at` integer NOT NULL,
	`sent_at` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_error` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "telegram_outbox_status_valid" CHECK(status IN ('queued', 'sending', 'sent', 'failed', 'dropped'))
);
--> statement-breakpoint
CREATE INDEX `telegram_outbox_due_idx` ON `telegram_outbox` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `telegram_outbox_recent_idx` ON `telegram_outbox` (`user_id`,`consultation_id`,`kind`,`created_at`);--> statement-breakpoint
CREATE TABLE `telegram_stand_in_blocked_chats` (
	`chat_id` text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE `telegram_stand_in_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`chat_id` text NOT NULL,
	`text` text NOT NULL,
	`created_at` integer NOT NULL
);
