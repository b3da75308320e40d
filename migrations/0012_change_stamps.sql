ALTER TABLE `payouts` ADD `last_change_id` text;--> statement-breakpoint
ALTER TABLE `refunds` ADD `last_change_id` text;