-- Online orders made before the key was kept on the order were made under their campaign's present configuration.
UPDATE `payment_orders` SET `payos_checksum_key_enc` = (SELECT `checksum_key_enc` FROM `payos_configs` WHERE `payos_configs`.`campaign_id` = `payment_orders`.`campaign_id`) WHERE `payment_method` = 'ONLINE' AND `payos_checksum_key_enc` IS NULL;
