-- Written by hand from drizzle-kit's plan: columns are added in place (ALTER TABLE ... ADD), because
-- rebuilding `consultations` would drop it, and a drop deletes the rows that cascade from it (photos,
-- chats, notifications). The CHECKs are the schema's, as column constraints.
ALTER TABLE `doctors` ADD `consultation_languages` text DEFAULT 'am,en' NOT NULL;--> statement-breakpoint
ALTER TABLE `consultation_files` ADD `photo_kind` text CONSTRAINT "consultation_files_photo_kind_valid" CHECK(photo_kind IS NULL OR photo_kind IN ('close_up', 'distance', 'other'));--> statement-breakpoint
ALTER TABLE `consultation_files` ADD `body_area` text CONSTRAINT "consultation_files_body_area_valid" CHECK(body_area IS NULL OR body_area IN ('face', 'neck', 'chest', 'abdomen', 'groin', 'right_upper_arm', 'left_upper_arm', 'right_forearm', 'left_forearm', 'right_hand', 'left_hand', 'right_thigh', 'left_thigh', 'right_lower_leg', 'left_lower_leg', 'right_foot', 'left_foot', 'scalp', 'upper_back', 'lower_back', 'buttocks'));--> statement-breakpoint
ALTER TABLE `consultations` ADD `patient_age_years` integer CONSTRAINT "consultations_patient_age_range" CHECK(patient_age_years IS NULL OR patient_age_years BETWEEN 0 AND 120);--> statement-breakpoint
ALTER TABLE `consultations` ADD `patient_sex` text CONSTRAINT "consultations_patient_sex_valid" CHECK(patient_sex IS NULL OR patient_sex IN ('female', 'male'));--> statement-breakpoint
ALTER TABLE `consultations` ADD `body_areas` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `consultations` ADD `duration_amount` integer CONSTRAINT "consultations_duration_amount_range" CHECK(duration_amount IS NULL OR duration_amount BETWEEN 1 AND 99);--> statement-breakpoint
ALTER TABLE `consultations` ADD `duration_unit` text CONSTRAINT "consultations_duration_unit_valid" CHECK(duration_unit IS NULL OR duration_unit IN ('days', 'weeks', 'months', 'years'));--> statement-breakpoint
ALTER TABLE `consultations` ADD `symptoms` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `consultations` ADD `treatments_tried` text DEFAULT '' NOT NULL CONSTRAINT "consultations_treatments_tried_length" CHECK(length(treatments_tried) <= 1000);--> statement-breakpoint
ALTER TABLE `consultations` ADD `allergies` text DEFAULT '' NOT NULL CONSTRAINT "consultations_allergies_length" CHECK(length(allergies) <= 1000);--> statement-breakpoint
ALTER TABLE `consultations` ADD `pregnancy` text CONSTRAINT "consultations_pregnancy_valid" CHECK(pregnancy IS NULL OR pregnancy IN ('no', 'pregnant', 'breastfeeding'));--> statement-breakpoint
ALTER TABLE `consultations` ADD `follow_up_of_id` text;--> statement-breakpoint
ALTER TABLE `consultations` ADD `reserved_for_doctor_id` text REFERENCES users(id);--> statement-breakpoint
ALTER TABLE `consultations` ADD `reserved_until` integer;--> statement-breakpoint
ALTER TABLE `consultations` ADD `new_photos_due_at` integer;--> statement-breakpoint
ALTER TABLE `consultations` ADD `new_photos_reminded_at` integer;--> statement-breakpoint
CREATE INDEX `consultations_follow_up_of_idx` ON `consultations` (`follow_up_of_id`);--> statement-breakpoint
CREATE INDEX `consultations_new_photos_due_idx` ON `consultations` (`new_photos_due_at`);
