CREATE TABLE `user_facet_counts` (
	`organization_id` integer NOT NULL,
	`user_type` text NOT NULL,
	`membership_status` text NOT NULL,
	`is_active` integer NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`organization_id`, `user_type`, `membership_status`, `is_active`)
);
