CREATE TABLE `unit_member_figures` (
	`organization_id` integer NOT NULL,
	`bucket` text NOT NULL,
	`user_type` text NOT NULL,
	`membership_status` text NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`organization_id`, `bucket`, `user_type`, `membership_status`)
);
