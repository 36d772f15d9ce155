-- Before the one-open-link index: keep only the newest PENDING order of each assignment.
UPDATE `payment_orders` SET `status` = 'CANCELLED', `cancelled_at` = CAST(strftime('%s', 'now') AS INTEGER) * 1000
WHERE `status` = 'PENDING' AND `id` NOT IN (SELECT max(`id`) FROM `payment_orders` WHERE `status` = 'PENDING' GROUP BY `assignment_id`);
