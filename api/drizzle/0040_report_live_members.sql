CREATE TABLE `report_live_members` (
	`membership_id` integer PRIMARY KEY NOT NULL,
	`organization_id` integer NOT NULL,
	`user_id` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `report_live_members_org_idx` ON `report_live_members` (`organization_id`);--> statement-breakpoint
CREATE INDEX `report_live_members_user_idx` ON `report_live_members` (`user_id`);