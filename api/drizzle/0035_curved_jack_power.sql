CREATE TABLE `dues_rates` (
	`organization_id` integer NOT NULL,
	`member_type` text NOT NULL,
	`monthly_amount` integer NOT NULL,
	`updated_by` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`organization_id`, `member_type`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`updated_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `dues_shares` (
	`organization_type` text PRIMARY KEY NOT NULL,
	`keep_numerator` integer NOT NULL,
	`keep_denominator` integer NOT NULL,
	`updated_by` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`updated_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `remittances` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`from_organization_id` integer NOT NULL,
	`to_organization_id` integer NOT NULL,
	`amount` integer NOT NULL,
	`paid_at` integer NOT NULL,
	`note` text,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`created_by` integer,
	`confirmed_by` integer,
	`confirmed_at` integer,
	`cancelled_by` integer,
	`cancelled_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `payment_campaigns`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`from_organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`to_organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`confirmed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`cancelled_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `remittances_campaign_from_idx` ON `remittances` (`campaign_id`,`from_organization_id`,`status`);--> statement-breakpoint
CREATE INDEX `remittances_campaign_to_idx` ON `remittances` (`campaign_id`,`to_organization_id`,`status`);--> statement-breakpoint
CREATE INDEX `remittances_to_status_idx` ON `remittances` (`to_organization_id`,`status`);