CREATE TABLE `campaign_week_fees` (
	`campaign_id` integer NOT NULL,
	`week` integer NOT NULL,
	`assignment_id` integer NOT NULL,
	`orders` integer DEFAULT 0 NOT NULL,
	`collected` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`campaign_id`, `week`, `assignment_id`)
);
--> statement-breakpoint
CREATE TABLE `campaign_weeks` (
	`campaign_id` integer NOT NULL,
	`week` integer NOT NULL,
	`payments` integer DEFAULT 0 NOT NULL,
	`collected` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`campaign_id`, `week`)
);
