ALTER TABLE `payment_assignments` ADD `amount` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `payment_assignments` ADD `is_test_payment` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `payment_orders` ADD `is_test` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `payment_orders` ADD `received_amount` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `payment_orders` ADD `attention` text;--> statement-breakpoint
ALTER TABLE `payment_orders` ADD `attention_reason` text;--> statement-breakpoint
ALTER TABLE `payment_orders` ADD `attention_amount` integer;--> statement-breakpoint
ALTER TABLE `payment_orders` ADD `resolution` text;--> statement-breakpoint
ALTER TABLE `payment_orders` ADD `resolved_by` integer REFERENCES users(id);--> statement-breakpoint
ALTER TABLE `payment_orders` ADD `resolved_at` integer;--> statement-breakpoint
ALTER TABLE `payment_orders` ADD `resolution_note` text;--> statement-breakpoint
CREATE UNIQUE INDEX `payment_orders_one_open_uq` ON `payment_orders` (`assignment_id`) WHERE status = 'PENDING';--> statement-breakpoint
CREATE INDEX `payment_orders_attention_idx` ON `payment_orders` (`campaign_id`,`attention`);--> statement-breakpoint
ALTER TABLE `payos_configs` ADD `description_max_length` integer DEFAULT 9 NOT NULL;--> statement-breakpoint
ALTER TABLE `payos_configs` ADD `webhook_url` text;--> statement-breakpoint
ALTER TABLE `payos_configs` ADD `webhook_confirmed_at` integer;--> statement-breakpoint
ALTER TABLE `payos_configs` ADD `webhook_message` text;