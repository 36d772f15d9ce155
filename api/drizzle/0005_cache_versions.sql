-- One version per table that cached reads depend on (api/src/lib/freshness.ts). Triggers bump it on every
-- row written by any connection, so a cache compares versions instead of being cleared by hand.
-- refresh_tokens and import_sessions are left out on purpose: sign-ins and import progress change no cached read.
CREATE TABLE `cache_versions` (`name` text PRIMARY KEY NOT NULL, `version` integer DEFAULT 0 NOT NULL) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `cache_versions` (`name`) VALUES ('users'), ('departments'), ('classes'), ('organizations'), ('organization_members'), ('permissions'), ('role_permissions'), ('roles'), ('user_roles'), ('audit_logs'), ('fee_levels'), ('payment_assignments'), ('payment_campaigns'), ('payment_orders'), ('payment_transactions'), ('payos_configs');
--> statement-breakpoint
CREATE TRIGGER `users_version_i` AFTER INSERT ON `users` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'users'; END;
--> statement-breakpoint
CREATE TRIGGER `users_version_u` AFTER UPDATE ON `users` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'users'; END;
--> statement-breakpoint
CREATE TRIGGER `users_version_d` AFTER DELETE ON `users` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'users'; END;
--> statement-breakpoint
CREATE TRIGGER `departments_version_i` AFTER INSERT ON `departments` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'departments'; END;
--> statement-breakpoint
CREATE TRIGGER `departments_version_u` AFTER UPDATE ON `departments` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'departments'; END;
--> statement-breakpoint
CREATE TRIGGER `departments_version_d` AFTER DELETE ON `departments` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'departments'; END;
--> statement-breakpoint
CREATE TRIGGER `classes_version_i` AFTER INSERT ON `classes` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'classes'; END;
--> statement-breakpoint
CREATE TRIGGER `classes_version_u` AFTER UPDATE ON `classes` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'classes'; END;
--> statement-breakpoint
CREATE TRIGGER `classes_version_d` AFTER DELETE ON `classes` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'classes'; END;
--> statement-breakpoint
CREATE TRIGGER `organizations_version_i` AFTER INSERT ON `organizations` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'organizations'; END;
--> statement-breakpoint
CREATE TRIGGER `organizations_version_u` AFTER UPDATE ON `organizations` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'organizations'; END;
--> statement-breakpoint
CREATE TRIGGER `organizations_version_d` AFTER DELETE ON `organizations` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'organizations'; END;
--> statement-breakpoint
CREATE TRIGGER `organization_members_version_i` AFTER INSERT ON `organization_members` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'organization_members'; END;
--> statement-breakpoint
CREATE TRIGGER `organization_members_version_u` AFTER UPDATE ON `organization_members` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'organization_members'; END;
--> statement-breakpoint
CREATE TRIGGER `organization_members_version_d` AFTER DELETE ON `organization_members` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'organization_members'; END;
--> statement-breakpoint
CREATE TRIGGER `permissions_version_i` AFTER INSERT ON `permissions` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'permissions'; END;
--> statement-breakpoint
CREATE TRIGGER `permissions_version_u` AFTER UPDATE ON `permissions` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'permissions'; END;
--> statement-breakpoint
CREATE TRIGGER `permissions_version_d` AFTER DELETE ON `permissions` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'permissions'; END;
--> statement-breakpoint
CREATE TRIGGER `role_permissions_version_i` AFTER INSERT ON `role_permissions` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'role_permissions'; END;
--> statement-breakpoint
CREATE TRIGGER `role_permissions_version_u` AFTER UPDATE ON `role_permissions` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'role_permissions'; END;
--> statement-breakpoint
CREATE TRIGGER `role_permissions_version_d` AFTER DELETE ON `role_permissions` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'role_permissions'; END;
--> statement-breakpoint
CREATE TRIGGER `roles_version_i` AFTER INSERT ON `roles` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'roles'; END;
--> statement-breakpoint
CREATE TRIGGER `roles_version_u` AFTER UPDATE ON `roles` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'roles'; END;
--> statement-breakpoint
CREATE TRIGGER `roles_version_d` AFTER DELETE ON `roles` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'roles'; END;
--> statement-breakpoint
CREATE TRIGGER `user_roles_version_i` AFTER INSERT ON `user_roles` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'user_roles'; END;
--> statement-breakpoint
CREATE TRIGGER `user_roles_version_u` AFTER UPDATE ON `user_roles` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'user_roles'; END;
--> statement-breakpoint
CREATE TRIGGER `user_roles_version_d` AFTER DELETE ON `user_roles` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'user_roles'; END;
--> statement-breakpoint
CREATE TRIGGER `audit_logs_version_i` AFTER INSERT ON `audit_logs` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'audit_logs'; END;
--> statement-breakpoint
CREATE TRIGGER `audit_logs_version_u` AFTER UPDATE ON `audit_logs` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'audit_logs'; END;
--> statement-breakpoint
CREATE TRIGGER `audit_logs_version_d` AFTER DELETE ON `audit_logs` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'audit_logs'; END;
--> statement-breakpoint
CREATE TRIGGER `fee_levels_version_i` AFTER INSERT ON `fee_levels` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'fee_levels'; END;
--> statement-breakpoint
CREATE TRIGGER `fee_levels_version_u` AFTER UPDATE ON `fee_levels` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'fee_levels'; END;
--> statement-breakpoint
CREATE TRIGGER `fee_levels_version_d` AFTER DELETE ON `fee_levels` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'fee_levels'; END;
--> statement-breakpoint
CREATE TRIGGER `payment_assignments_version_i` AFTER INSERT ON `payment_assignments` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'payment_assignments'; END;
--> statement-breakpoint
CREATE TRIGGER `payment_assignments_version_u` AFTER UPDATE ON `payment_assignments` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'payment_assignments'; END;
--> statement-breakpoint
CREATE TRIGGER `payment_assignments_version_d` AFTER DELETE ON `payment_assignments` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'payment_assignments'; END;
--> statement-breakpoint
CREATE TRIGGER `payment_campaigns_version_i` AFTER INSERT ON `payment_campaigns` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'payment_campaigns'; END;
--> statement-breakpoint
CREATE TRIGGER `payment_campaigns_version_u` AFTER UPDATE ON `payment_campaigns` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'payment_campaigns'; END;
--> statement-breakpoint
CREATE TRIGGER `payment_campaigns_version_d` AFTER DELETE ON `payment_campaigns` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'payment_campaigns'; END;
--> statement-breakpoint
CREATE TRIGGER `payment_orders_version_i` AFTER INSERT ON `payment_orders` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'payment_orders'; END;
--> statement-breakpoint
CREATE TRIGGER `payment_orders_version_u` AFTER UPDATE ON `payment_orders` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'payment_orders'; END;
--> statement-breakpoint
CREATE TRIGGER `payment_orders_version_d` AFTER DELETE ON `payment_orders` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'payment_orders'; END;
--> statement-breakpoint
CREATE TRIGGER `payment_transactions_version_i` AFTER INSERT ON `payment_transactions` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'payment_transactions'; END;
--> statement-breakpoint
CREATE TRIGGER `payment_transactions_version_u` AFTER UPDATE ON `payment_transactions` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'payment_transactions'; END;
--> statement-breakpoint
CREATE TRIGGER `payment_transactions_version_d` AFTER DELETE ON `payment_transactions` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'payment_transactions'; END;
--> statement-breakpoint
CREATE TRIGGER `payos_configs_version_i` AFTER INSERT ON `payos_configs` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'payos_configs'; END;
--> statement-breakpoint
CREATE TRIGGER `payos_configs_version_u` AFTER UPDATE ON `payos_configs` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'payos_configs'; END;
--> statement-breakpoint
CREATE TRIGGER `payos_configs_version_d` AFTER DELETE ON `payos_configs` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'payos_configs'; END;
