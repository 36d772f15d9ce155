CREATE TABLE `leases` (
	`name` text PRIMARY KEY NOT NULL,
	`holder` text NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `payos_sandbox_links` (
	`id` text PRIMARY KEY NOT NULL,
	`client_id` text NOT NULL,
	`order_code` integer NOT NULL,
	`checksum_key_enc` text NOT NULL,
	`data` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `payos_sandbox_links_order_idx` ON `payos_sandbox_links` (`order_code`);--> statement-breakpoint
CREATE TABLE `rate_windows` (
	`key` text PRIMARY KEY NOT NULL,
	`count` integer NOT NULL,
	`reset_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `rate_windows_reset_idx` ON `rate_windows` (`reset_at`);