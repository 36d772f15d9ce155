ALTER TABLE `payment_assignments` ADD `adjustment` text;--> statement-breakpoint
ALTER TABLE `payment_assignments` ADD `original_amount` integer;--> statement-breakpoint
ALTER TABLE `payment_assignments` ADD `adjustment_reason` text;--> statement-breakpoint
ALTER TABLE `payment_assignments` ADD `adjusted_by` integer REFERENCES users(id);--> statement-breakpoint
ALTER TABLE `payment_assignments` ADD `adjusted_at` integer;--> statement-breakpoint
ALTER TABLE `payment_orders` ADD `reversed_at` integer;--> statement-breakpoint
ALTER TABLE `payment_orders` ADD `reversed_by` integer REFERENCES users(id);--> statement-breakpoint
ALTER TABLE `payment_orders` ADD `reversal_reason` text;--> statement-breakpoint
ALTER TABLE `payment_orders` ADD `reverses_order_id` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `payment_orders_reverses_uq` ON `payment_orders` (`reverses_order_id`) WHERE reverses_order_id is not null;