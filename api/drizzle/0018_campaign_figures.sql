CREATE TABLE `campaign_figures` (
	`campaign_id` integer NOT NULL,
	`organization_id` integer NOT NULL,
	`assigned` integer DEFAULT 0 NOT NULL,
	`paid` integer DEFAULT 0 NOT NULL,
	`expected` integer DEFAULT 0 NOT NULL,
	`collected` integer DEFAULT 0 NOT NULL,
	`overdue_count` integer DEFAULT 0 NOT NULL,
	`overdue_amount` integer DEFAULT 0 NOT NULL,
	`pending_count` integer DEFAULT 0 NOT NULL,
	`pending_amount` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`campaign_id`, `organization_id`)
);
--> statement-breakpoint
CREATE INDEX `campaign_figures_org_idx` ON `campaign_figures` (`organization_id`,`campaign_id`);