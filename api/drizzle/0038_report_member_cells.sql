CREATE TABLE `report_member_cells` (
	`organization_id` integer NOT NULL,
	`membership_status` text NOT NULL,
	`user_type` text NOT NULL,
	`gender` text NOT NULL,
	`ethnicity` text NOT NULL,
	`joined_day` integer NOT NULL,
	`ended_day` integer NOT NULL,
	`end_reason` text NOT NULL,
	`transfer_in` integer NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`organization_id`, `membership_status`, `user_type`, `gender`, `ethnicity`, `joined_day`, `ended_day`, `end_reason`, `transfer_in`)
);
