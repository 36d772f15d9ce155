CREATE TABLE `email_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer,
	`reminder_id` integer,
	`to_address` text NOT NULL,
	`subject` text NOT NULL,
	`text` text NOT NULL,
	`status` text NOT NULL,
	`error` text,
	`sent_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `payment_campaigns`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`reminder_id`) REFERENCES `payment_reminders`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `email_outbox_campaign_idx` ON `email_outbox` (`campaign_id`,`id`);--> statement-breakpoint
CREATE INDEX `email_outbox_status_idx` ON `email_outbox` (`status`,`id`);--> statement-breakpoint
CREATE INDEX `email_outbox_reminder_idx` ON `email_outbox` (`reminder_id`);--> statement-breakpoint
CREATE TABLE `payment_reminders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`assignment_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`sent_by` integer,
	`kind` text NOT NULL,
	`amount` integer NOT NULL,
	`due_date` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `payment_campaigns`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`assignment_id`) REFERENCES `payment_assignments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`sent_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `payment_reminders_campaign_user_idx` ON `payment_reminders` (`campaign_id`,`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `payment_reminders_campaign_idx` ON `payment_reminders` (`campaign_id`,`id`);--> statement-breakpoint
CREATE INDEX `payment_reminders_user_idx` ON `payment_reminders` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `payment_reminders_assignment_kind_idx` ON `payment_reminders` (`assignment_id`,`kind`);--> statement-breakpoint
CREATE TABLE `reminder_schedules` (
	`campaign_id` integer PRIMARY KEY NOT NULL,
	`days_before` integer,
	`on_overdue` integer DEFAULT false NOT NULL,
	`updated_by` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `payment_campaigns`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`updated_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
