CREATE TABLE `room_connections` (
	`room_class` text NOT NULL,
	`room_name` text NOT NULL,
	`connection_id` text NOT NULL,
	`session_id` text NOT NULL,
	`connected_at` integer NOT NULL,
	PRIMARY KEY(`room_class`, `room_name`, `connection_id`)
);
--> statement-breakpoint
CREATE INDEX `room_connections_session_idx` ON `room_connections` (`session_id`);--> statement-breakpoint
CREATE INDEX `room_connections_connected_at_idx` ON `room_connections` (`connected_at`);