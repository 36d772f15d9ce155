ALTER TABLE `audit_logs` ADD `organization_id` integer;--> statement-breakpoint
CREATE INDEX `audit_logs_org_created_idx` ON `audit_logs` (`organization_id`,`created_at`);
