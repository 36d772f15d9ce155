CREATE TABLE `transfers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`from_organization_id` integer NOT NULL,
	`to_organization_id` integer NOT NULL,
	`reason` text NOT NULL,
	`effective_date` text NOT NULL,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`requested_side` text DEFAULT 'from' NOT NULL,
	`requested_by` integer,
	`decided_by` integer,
	`decided_at` integer,
	`refuse_reason` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`from_organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`to_organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`requested_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`decided_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `transfers_pending_user_uq` ON `transfers` (`user_id`) WHERE status = 'PENDING';--> statement-breakpoint
CREATE INDEX `transfers_from_idx` ON `transfers` (`from_organization_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `transfers_to_idx` ON `transfers` (`to_organization_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `transfers_status_idx` ON `transfers` (`status`,`id`);--> statement-breakpoint
CREATE INDEX `transfers_user_idx` ON `transfers` (`user_id`,`id`);--> statement-breakpoint
ALTER TABLE `organization_members` ADD `ended_at` integer;--> statement-breakpoint
ALTER TABLE `organization_members` ADD `end_reason` text;--> statement-breakpoint
ALTER TABLE `organization_members` ADD `end_note` text;--> statement-breakpoint
CREATE INDEX `organization_members_org_active_idx` ON `organization_members` (`organization_id`,`is_active`);