CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`family_name` text NOT NULL,
	`given_name` text NOT NULL,
	`email` text NOT NULL,
	`phone` text,
	`password_hash` text,
	`must_change_password` integer DEFAULT false NOT NULL,
	`user_type` text DEFAULT 'student' NOT NULL,
	`membership_status` text DEFAULT 'none' NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`class_id` integer,
	`management_department_id` integer,
	`training_department_id` integer,
	`search_text` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`class_id`) REFERENCES `classes`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`management_department_id`) REFERENCES `departments`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`training_department_id`) REFERENCES `departments`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_code_uq` ON `users` (`code`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_uq` ON `users` (`email`);--> statement-breakpoint
CREATE INDEX `users_type_idx` ON `users` (`user_type`,`id`);--> statement-breakpoint
CREATE INDEX `users_membership_idx` ON `users` (`membership_status`,`id`);--> statement-breakpoint
CREATE INDEX `users_active_idx` ON `users` (`is_active`,`id`);--> statement-breakpoint
CREATE INDEX `users_class_idx` ON `users` (`class_id`);--> statement-breakpoint
CREATE INDEX `users_mgmt_dept_idx` ON `users` (`management_department_id`);--> statement-breakpoint
CREATE INDEX `users_training_dept_idx` ON `users` (`training_department_id`);--> statement-breakpoint
CREATE TABLE `departments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`code` text,
	`description` text,
	`is_active` integer DEFAULT true NOT NULL,
	`search_text` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `departments_code_uq` ON `departments` (`code`);--> statement-breakpoint
CREATE INDEX `departments_active_idx` ON `departments` (`is_active`,`id`);--> statement-breakpoint
CREATE TABLE `classes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`code` text,
	`year` integer NOT NULL,
	`department_id` integer,
	`is_active` integer DEFAULT true NOT NULL,
	`search_text` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`department_id`) REFERENCES `departments`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `classes_code_uq` ON `classes` (`code`);--> statement-breakpoint
CREATE INDEX `classes_department_idx` ON `classes` (`department_id`);--> statement-breakpoint
CREATE INDEX `classes_year_idx` ON `classes` (`year`);--> statement-breakpoint
CREATE INDEX `classes_active_idx` ON `classes` (`is_active`,`id`);--> statement-breakpoint
CREATE TABLE `organization_members` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`organization_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`role` text DEFAULT 'member' NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`joined_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `organization_members_org_user_uq` ON `organization_members` (`organization_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `organization_members_user_idx` ON `organization_members` (`user_id`);--> statement-breakpoint
CREATE TABLE `organizations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`code` text NOT NULL,
	`type` text NOT NULL,
	`description` text,
	`parent_id` integer,
	`path` text DEFAULT '/' NOT NULL,
	`search_text` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`parent_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `organizations_type_code_uq` ON `organizations` (`type`,`code`);--> statement-breakpoint
CREATE INDEX `organizations_parent_idx` ON `organizations` (`parent_id`);--> statement-breakpoint
CREATE INDEX `organizations_path_idx` ON `organizations` (`path`);--> statement-breakpoint
CREATE INDEX `organizations_code_idx` ON `organizations` (`code`);--> statement-breakpoint
CREATE TABLE `permissions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`category` text NOT NULL,
	`context` text DEFAULT 'organization' NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`sort_order` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `permissions_code_uq` ON `permissions` (`code`);--> statement-breakpoint
CREATE TABLE `role_permissions` (
	`role_id` integer NOT NULL,
	`permission_id` integer NOT NULL,
	PRIMARY KEY(`role_id`, `permission_id`),
	FOREIGN KEY (`role_id`) REFERENCES `roles`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`permission_id`) REFERENCES `permissions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `role_permissions_permission_idx` ON `role_permissions` (`permission_id`);--> statement-breakpoint
CREATE TABLE `roles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`display_name` text NOT NULL,
	`description` text,
	`is_active` integer DEFAULT true NOT NULL,
	`is_system_role` integer DEFAULT false NOT NULL,
	`search_text` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `roles_name_uq` ON `roles` (`name`);--> statement-breakpoint
CREATE INDEX `roles_active_idx` ON `roles` (`is_active`,`id`);--> statement-breakpoint
CREATE TABLE `user_roles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`role_id` integer NOT NULL,
	`organization_id` integer,
	`is_active` integer DEFAULT true NOT NULL,
	`granted_by` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`role_id`) REFERENCES `roles`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`granted_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `user_roles_user_idx` ON `user_roles` (`user_id`);--> statement-breakpoint
CREATE INDEX `user_roles_role_idx` ON `user_roles` (`role_id`);--> statement-breakpoint
CREATE INDEX `user_roles_org_idx` ON `user_roles` (`organization_id`);--> statement-breakpoint
CREATE TABLE `refresh_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`token_hash` text NOT NULL,
	`family_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	`revoked_reason` text,
	`ip` text,
	`user_agent` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `refresh_tokens_hash_uq` ON `refresh_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `refresh_tokens_family_idx` ON `refresh_tokens` (`family_id`);--> statement-breakpoint
CREATE INDEX `refresh_tokens_user_idx` ON `refresh_tokens` (`user_id`);--> statement-breakpoint
CREATE TABLE `audit_logs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`actor_id` integer,
	`action` text NOT NULL,
	`entity` text NOT NULL,
	`entity_id` text,
	`before` text,
	`after` text,
	`ip` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `audit_logs_entity_idx` ON `audit_logs` (`entity`,`entity_id`);--> statement-breakpoint
CREATE INDEX `audit_logs_actor_idx` ON `audit_logs` (`actor_id`);--> statement-breakpoint
CREATE INDEX `audit_logs_created_idx` ON `audit_logs` (`created_at`);--> statement-breakpoint
CREATE TABLE `import_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`actor_id` integer,
	`file_name` text NOT NULL,
	`total_rows` integer DEFAULT 0 NOT NULL,
	`rows` text DEFAULT '[]' NOT NULL,
	`params` text DEFAULT '{}' NOT NULL,
	`validation` text,
	`status` text DEFAULT 'uploaded' NOT NULL,
	`processed_rows` integer DEFAULT 0 NOT NULL,
	`result` text,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `import_sessions_expires_idx` ON `import_sessions` (`expires_at`);--> statement-breakpoint
CREATE INDEX `import_sessions_actor_idx` ON `import_sessions` (`actor_id`);--> statement-breakpoint
CREATE TABLE `fee_levels` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`level_name` text NOT NULL,
	`amount` integer NOT NULL,
	`description` text,
	`note` text,
	`order_index` integer DEFAULT 0 NOT NULL,
	`is_default` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `payment_campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `fee_levels_campaign_idx` ON `fee_levels` (`campaign_id`,`order_index`);--> statement-breakpoint
CREATE TABLE `payment_assignments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`fee_level_id` integer NOT NULL,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`due_date` integer,
	`notes` text,
	`assigned_by` integer,
	`paid_at` integer,
	`paid_amount` integer,
	`payment_method` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `payment_campaigns`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`fee_level_id`) REFERENCES `fee_levels`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`assigned_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_assignments_campaign_user_uq` ON `payment_assignments` (`campaign_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `payment_assignments_campaign_status_idx` ON `payment_assignments` (`campaign_id`,`status`);--> statement-breakpoint
CREATE INDEX `payment_assignments_user_idx` ON `payment_assignments` (`user_id`);--> statement-breakpoint
CREATE INDEX `payment_assignments_fee_level_idx` ON `payment_assignments` (`fee_level_id`);--> statement-breakpoint
CREATE TABLE `payment_campaigns` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`organization_id` integer NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`start_date` integer NOT NULL,
	`end_date` integer NOT NULL,
	`status` text DEFAULT 'DRAFT' NOT NULL,
	`created_by` integer,
	`search_text` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `payment_campaigns_org_idx` ON `payment_campaigns` (`organization_id`,`id`);--> statement-breakpoint
CREATE INDEX `payment_campaigns_status_idx` ON `payment_campaigns` (`status`,`id`);--> statement-breakpoint
CREATE INDEX `payment_campaigns_dates_idx` ON `payment_campaigns` (`start_date`,`end_date`);--> statement-breakpoint
CREATE TABLE `payment_orders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`order_code` integer NOT NULL,
	`assignment_id` integer NOT NULL,
	`campaign_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`amount` integer NOT NULL,
	`description` text NOT NULL,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`payment_method` text DEFAULT 'ONLINE' NOT NULL,
	`manual_method` text,
	`note` text,
	`recorded_by` integer,
	`payment_link_id` text,
	`checkout_url` text,
	`paid_at` integer,
	`cancelled_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`assignment_id`) REFERENCES `payment_assignments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`campaign_id`) REFERENCES `payment_campaigns`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`recorded_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_orders_order_code_uq` ON `payment_orders` (`order_code`);--> statement-breakpoint
CREATE INDEX `payment_orders_campaign_status_idx` ON `payment_orders` (`campaign_id`,`status`);--> statement-breakpoint
CREATE INDEX `payment_orders_user_idx` ON `payment_orders` (`user_id`);--> statement-breakpoint
CREATE INDEX `payment_orders_assignment_idx` ON `payment_orders` (`assignment_id`);--> statement-breakpoint
CREATE TABLE `payment_transactions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`order_id` integer NOT NULL,
	`reference` text NOT NULL,
	`amount` integer NOT NULL,
	`account_number` text,
	`description` text,
	`transaction_date_time` text,
	`counter_account_name` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `payment_orders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_transactions_reference_uq` ON `payment_transactions` (`reference`);--> statement-breakpoint
CREATE INDEX `payment_transactions_order_idx` ON `payment_transactions` (`order_id`);--> statement-breakpoint
CREATE TABLE `payos_configs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`organization_id` integer NOT NULL,
	`client_id` text NOT NULL,
	`api_key_enc` text NOT NULL,
	`checksum_key_enc` text NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `payment_campaigns`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payos_configs_campaign_uq` ON `payos_configs` (`campaign_id`);