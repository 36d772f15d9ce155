-- Who is in a subtree, as versions on SQLite too (PostgreSQL: drizzle-pg 0036's member_scopes buckets): a users list
-- narrowed to a subtree (users/list.ts countedTables) follows 'member_scopes:<n>' when the subtree is at or below a
-- second-level unit (n: that unit's id modulo 16) or 'member_scopes:top' for a top-level unit, instead of every
-- membership written anywhere. A membership that becomes active (or ends) moves 'top' when its member entered (or
-- left) the top-level unit's tree, and its second-level unit's bucket when the member entered (or left) the unit's own
-- subtree, hence perhaps those of the units above it; a member already in the unit's subtree by another membership
-- changes no subtree. A membership of a unit already deleted, or one moved to another unit or user, moves them all.
-- Under the 100k mix with 1 % writes, two thirds of them memberships, every scoped search was counted again after each.
INSERT INTO `cache_versions` (`name`) VALUES ('member_scopes:0'), ('member_scopes:1'), ('member_scopes:2'), ('member_scopes:3'), ('member_scopes:4'), ('member_scopes:5'), ('member_scopes:6'), ('member_scopes:7'), ('member_scopes:8'), ('member_scopes:9'), ('member_scopes:10'), ('member_scopes:11'), ('member_scopes:12'), ('member_scopes:13'), ('member_scopes:14'), ('member_scopes:15'), ('member_scopes:top');
--> statement-breakpoint
CREATE TRIGGER `member_scopes_version_i` AFTER INSERT ON `organization_members` WHEN NEW.`is_active` BEGIN
UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` IN (
  SELECT 'member_scopes:top' FROM `organizations` o WHERE o.`id` = NEW.`organization_id`
    AND NOT EXISTS (SELECT 1 FROM `organization_members` m JOIN `organizations` g ON g.`id` = m.`organization_id` WHERE m.`user_id` = NEW.`user_id` AND m.`is_active` AND m.`id` <> NEW.`id` AND substr(g.`path`, 1, instr(substr(o.`path`, 2), '/') + 1) = substr(o.`path`, 1, instr(substr(o.`path`, 2), '/') + 1))
  UNION ALL
  SELECT 'member_scopes:' || (CAST(substr(substr(o.`path`, instr(substr(o.`path`, 2), '/') + 2), 1, instr(substr(o.`path`, instr(substr(o.`path`, 2), '/') + 2), '/') - 1) AS INTEGER) % 16) FROM `organizations` o WHERE o.`id` = NEW.`organization_id`
    AND instr(substr(o.`path`, instr(substr(o.`path`, 2), '/') + 2), '/') > 0
    AND NOT EXISTS (SELECT 1 FROM `organization_members` m JOIN `organizations` g ON g.`id` = m.`organization_id` WHERE m.`user_id` = NEW.`user_id` AND m.`is_active` AND m.`id` <> NEW.`id` AND substr(g.`path`, 1, length(o.`path`)) = o.`path`)
  UNION ALL
  SELECT `name` FROM `cache_versions` WHERE `name` LIKE 'member_scopes:%' AND NOT EXISTS (SELECT 1 FROM `organizations` WHERE `id` = NEW.`organization_id`)
); END;
--> statement-breakpoint
CREATE TRIGGER `member_scopes_version_d` AFTER DELETE ON `organization_members` WHEN OLD.`is_active` BEGIN
UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` IN (
  SELECT 'member_scopes:top' FROM `organizations` o WHERE o.`id` = OLD.`organization_id`
    AND NOT EXISTS (SELECT 1 FROM `organization_members` m JOIN `organizations` g ON g.`id` = m.`organization_id` WHERE m.`user_id` = OLD.`user_id` AND m.`is_active` AND m.`id` <> OLD.`id` AND substr(g.`path`, 1, instr(substr(o.`path`, 2), '/') + 1) = substr(o.`path`, 1, instr(substr(o.`path`, 2), '/') + 1))
  UNION ALL
  SELECT 'member_scopes:' || (CAST(substr(substr(o.`path`, instr(substr(o.`path`, 2), '/') + 2), 1, instr(substr(o.`path`, instr(substr(o.`path`, 2), '/') + 2), '/') - 1) AS INTEGER) % 16) FROM `organizations` o WHERE o.`id` = OLD.`organization_id`
    AND instr(substr(o.`path`, instr(substr(o.`path`, 2), '/') + 2), '/') > 0
    AND NOT EXISTS (SELECT 1 FROM `organization_members` m JOIN `organizations` g ON g.`id` = m.`organization_id` WHERE m.`user_id` = OLD.`user_id` AND m.`is_active` AND m.`id` <> OLD.`id` AND substr(g.`path`, 1, length(o.`path`)) = o.`path`)
  UNION ALL
  SELECT `name` FROM `cache_versions` WHERE `name` LIKE 'member_scopes:%' AND NOT EXISTS (SELECT 1 FROM `organizations` WHERE `id` = OLD.`organization_id`)
); END;
--> statement-breakpoint
CREATE TRIGGER `member_scopes_version_active` AFTER UPDATE OF `is_active` ON `organization_members` WHEN OLD.`is_active` IS NOT NEW.`is_active` AND OLD.`organization_id` IS NEW.`organization_id` AND OLD.`user_id` IS NEW.`user_id` BEGIN
UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` IN (
  SELECT 'member_scopes:top' FROM `organizations` o WHERE o.`id` = NEW.`organization_id`
    AND NOT EXISTS (SELECT 1 FROM `organization_members` m JOIN `organizations` g ON g.`id` = m.`organization_id` WHERE m.`user_id` = NEW.`user_id` AND m.`is_active` AND m.`id` <> NEW.`id` AND substr(g.`path`, 1, instr(substr(o.`path`, 2), '/') + 1) = substr(o.`path`, 1, instr(substr(o.`path`, 2), '/') + 1))
  UNION ALL
  SELECT 'member_scopes:' || (CAST(substr(substr(o.`path`, instr(substr(o.`path`, 2), '/') + 2), 1, instr(substr(o.`path`, instr(substr(o.`path`, 2), '/') + 2), '/') - 1) AS INTEGER) % 16) FROM `organizations` o WHERE o.`id` = NEW.`organization_id`
    AND instr(substr(o.`path`, instr(substr(o.`path`, 2), '/') + 2), '/') > 0
    AND NOT EXISTS (SELECT 1 FROM `organization_members` m JOIN `organizations` g ON g.`id` = m.`organization_id` WHERE m.`user_id` = NEW.`user_id` AND m.`is_active` AND m.`id` <> NEW.`id` AND substr(g.`path`, 1, length(o.`path`)) = o.`path`)
  UNION ALL
  SELECT `name` FROM `cache_versions` WHERE `name` LIKE 'member_scopes:%' AND NOT EXISTS (SELECT 1 FROM `organizations` WHERE `id` = NEW.`organization_id`)
); END;
--> statement-breakpoint
CREATE TRIGGER `member_scopes_version_moved` AFTER UPDATE OF `organization_id`, `user_id` ON `organization_members` WHEN (OLD.`organization_id` IS NOT NEW.`organization_id` OR OLD.`user_id` IS NOT NEW.`user_id`) AND (OLD.`is_active` OR NEW.`is_active`) BEGIN
UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` LIKE 'member_scopes:%'; END;
