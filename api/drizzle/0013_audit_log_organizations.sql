CREATE TABLE `audit_log_organizations` (
	`audit_log_id` integer NOT NULL,
	`organization_id` integer NOT NULL,
	PRIMARY KEY(`audit_log_id`, `organization_id`),
	FOREIGN KEY (`audit_log_id`) REFERENCES `audit_logs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `audit_log_organizations_org_idx` ON `audit_log_organizations` (`organization_id`,`audit_log_id`);