-- Written by hand instead of drizzle-kit's table rebuild: on D1, rebuilding `consultations` (DROP TABLE)
-- would cascade-delete the rows that reference it. Adding columns keeps every row; the checks that
-- app/db/schema.ts states for the table are carried by the new columns themselves.
ALTER TABLE `consultations` ADD `decline_reason` text CONSTRAINT "consultations_decline_reason_valid" CHECK(decline_reason IS NULL OR decline_reason IN ('in_person', 'not_skin', 'photos_unclear', 'other'));--> statement-breakpoint
ALTER TABLE `consultations` ADD `decline_note` text CONSTRAINT "consultations_decline_note_length" CHECK(decline_note IS NULL OR length(decline_note) <= 500);--> statement-breakpoint
ALTER TABLE `consultations` ADD `last_move_id` text;
