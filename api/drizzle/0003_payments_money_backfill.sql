-- Existing assignments owe their fee level's amount; existing PAID orders received their amount.
UPDATE `payment_assignments` SET `amount` = (SELECT `amount` FROM `fee_levels` WHERE `fee_levels`.`id` = `payment_assignments`.`fee_level_id`);--> statement-breakpoint
UPDATE `payment_orders` SET `received_amount` = `amount` WHERE `status` = 'PAID';--> statement-breakpoint
UPDATE `payment_assignments` SET `paid_amount` = `amount` WHERE `status` = 'PAID' AND `paid_amount` IS NULL;
