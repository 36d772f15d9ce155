-- Trigger statements avoid OR IGNORE: an outer UPSERT's conflict handling overrides it.
-- Users search and scope: one FTS5 index per user with two columns. search_text holds the words
-- of users.search_text (already accent-stripped and lower-cased; prefix indexes answer "ng" and
-- "ngu"; docs/decisions.md: words match the beginnings of words). orgs holds a token per
-- organization the user is an active member of, and per ancestor of it ("o1 o5 o12"), so "members
-- of this subtree" is one token's list and a scoped count or deep page is an index walk.
-- Contentless (the text stays in users). Triggers only queue the users whose row must be rebuilt
-- (users_fts_pending); the app applies the queue in one statement before it reads the index
-- (users/search.ts): FTS5 flushes its buffer at every statement savepoint, so writing the index
-- from a trigger row by row made a 10,000-row import 30 times slower.
CREATE VIRTUAL TABLE `users_fts` USING fts5(search_text, orgs, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2', prefix='2 3');
--> statement-breakpoint
INSERT INTO `users_fts` (rowid, search_text, orgs) SELECT id, search_text, (SELECT coalesce(group_concat('o' || replace(trim(o.path, '/'), '/', ' o'), ' '), '') FROM organization_members m JOIN organizations o ON o.id = m.organization_id WHERE m.user_id = users.id AND m.is_active = 1) FROM users;
--> statement-breakpoint
CREATE TABLE `users_fts_pending` (`user_id` integer PRIMARY KEY NOT NULL);
--> statement-breakpoint
CREATE TRIGGER `users_fts_i` AFTER INSERT ON `users` BEGIN INSERT INTO users_fts_pending (user_id) SELECT NEW.id WHERE NOT EXISTS (SELECT 1 FROM users_fts_pending WHERE user_id = NEW.id); END;
--> statement-breakpoint
CREATE TRIGGER `users_fts_d` AFTER DELETE ON `users` BEGIN INSERT INTO users_fts_pending (user_id) SELECT OLD.id WHERE NOT EXISTS (SELECT 1 FROM users_fts_pending WHERE user_id = OLD.id); END;
--> statement-breakpoint
CREATE TRIGGER `users_fts_u` AFTER UPDATE OF search_text ON `users` BEGIN INSERT INTO users_fts_pending (user_id) SELECT NEW.id WHERE NOT EXISTS (SELECT 1 FROM users_fts_pending WHERE user_id = NEW.id); END;
--> statement-breakpoint
CREATE TRIGGER `organization_members_fts_i` AFTER INSERT ON `organization_members` BEGIN INSERT INTO users_fts_pending (user_id) SELECT NEW.user_id WHERE NOT EXISTS (SELECT 1 FROM users_fts_pending WHERE user_id = NEW.user_id); END;
--> statement-breakpoint
CREATE TRIGGER `organization_members_fts_d` AFTER DELETE ON `organization_members` BEGIN INSERT INTO users_fts_pending (user_id) SELECT OLD.user_id WHERE NOT EXISTS (SELECT 1 FROM users_fts_pending WHERE user_id = OLD.user_id); END;
--> statement-breakpoint
CREATE TRIGGER `organization_members_fts_u` AFTER UPDATE OF is_active, organization_id, user_id ON `organization_members` BEGIN INSERT INTO users_fts_pending (user_id) SELECT OLD.user_id WHERE NOT EXISTS (SELECT 1 FROM users_fts_pending WHERE user_id = OLD.user_id); INSERT INTO users_fts_pending (user_id) SELECT NEW.user_id WHERE NOT EXISTS (SELECT 1 FROM users_fts_pending WHERE user_id = NEW.user_id); END;
--> statement-breakpoint
-- Member counts (organization_member_counts): `direct` = active members of the organization,
-- `subtree` = distinct users with an active membership in it or beneath it. Ancestors come from
-- the materialised path ("/1/5/12/" -> [1,5,12]); a user counts once per ancestor, so a change
-- moves an ancestor's count only when no other active membership of that user lies beneath it.
INSERT INTO `organization_member_counts` (`organization_id`, `direct`, `subtree`)
SELECT a.id,
  (SELECT count(*) FROM organization_members m WHERE m.organization_id = a.id AND m.is_active = 1),
  coalesce(s.n, 0)
FROM organizations a
LEFT JOIN (
  SELECT j.value AS id, count(DISTINCT m.user_id) AS n
  FROM organization_members m
  JOIN organizations o ON o.id = m.organization_id, json_each('[' || replace(trim(o.path, '/'), '/', ',') || ']') j
  WHERE m.is_active = 1
  GROUP BY j.value
) s ON s.id = a.id;
--> statement-breakpoint
CREATE TRIGGER `organization_members_count_i` AFTER INSERT ON `organization_members` WHEN NEW.is_active = 1 BEGIN
  INSERT INTO organization_member_counts (organization_id) SELECT value FROM json_each((SELECT '[' || replace(trim(path, '/'), '/', ',') || ']' FROM organizations WHERE id = NEW.organization_id)) WHERE NOT EXISTS (SELECT 1 FROM organization_member_counts c WHERE c.organization_id = value);
  UPDATE organization_member_counts SET direct = direct + 1 WHERE organization_id = NEW.organization_id;
  UPDATE organization_member_counts SET subtree = subtree + 1 WHERE organization_id IN (SELECT value FROM json_each((SELECT '[' || replace(trim(path, '/'), '/', ',') || ']' FROM organizations WHERE id = NEW.organization_id))) AND NOT EXISTS (SELECT 1 FROM organization_members m JOIN organizations o ON o.id = m.organization_id WHERE m.user_id = NEW.user_id AND m.is_active = 1 AND m.id <> NEW.id AND instr(o.path, '/' || organization_member_counts.organization_id || '/') > 0);
END;
--> statement-breakpoint
CREATE TRIGGER `organization_members_count_d` AFTER DELETE ON `organization_members` WHEN OLD.is_active = 1 BEGIN
  UPDATE organization_member_counts SET direct = direct - 1 WHERE organization_id = OLD.organization_id;
  UPDATE organization_member_counts SET subtree = subtree - 1 WHERE organization_id IN (SELECT value FROM json_each((SELECT '[' || replace(trim(path, '/'), '/', ',') || ']' FROM organizations WHERE id = OLD.organization_id))) AND NOT EXISTS (SELECT 1 FROM organization_members m JOIN organizations o ON o.id = m.organization_id WHERE m.user_id = OLD.user_id AND m.is_active = 1 AND m.id <> OLD.id AND instr(o.path, '/' || organization_member_counts.organization_id || '/') > 0);
END;
--> statement-breakpoint
CREATE TRIGGER `organization_members_count_u` AFTER UPDATE OF is_active, organization_id, user_id ON `organization_members` BEGIN
  UPDATE organization_member_counts SET direct = direct - 1 WHERE organization_id = OLD.organization_id AND OLD.is_active = 1;
  UPDATE organization_member_counts SET subtree = subtree - 1 WHERE organization_id IN (SELECT value FROM json_each((SELECT '[' || replace(trim(path, '/'), '/', ',') || ']' FROM organizations WHERE id = OLD.organization_id))) AND OLD.is_active = 1 AND NOT EXISTS (SELECT 1 FROM organization_members m JOIN organizations o ON o.id = m.organization_id WHERE m.user_id = OLD.user_id AND m.is_active = 1 AND m.id <> OLD.id AND instr(o.path, '/' || organization_member_counts.organization_id || '/') > 0);
  INSERT INTO organization_member_counts (organization_id) SELECT value FROM json_each((SELECT '[' || replace(trim(path, '/'), '/', ',') || ']' FROM organizations WHERE id = NEW.organization_id)) WHERE NOT EXISTS (SELECT 1 FROM organization_member_counts c WHERE c.organization_id = value) AND NEW.is_active = 1;
  UPDATE organization_member_counts SET direct = direct + 1 WHERE organization_id = NEW.organization_id AND NEW.is_active = 1;
  UPDATE organization_member_counts SET subtree = subtree + 1 WHERE organization_id IN (SELECT value FROM json_each((SELECT '[' || replace(trim(path, '/'), '/', ',') || ']' FROM organizations WHERE id = NEW.organization_id))) AND NEW.is_active = 1 AND NOT EXISTS (SELECT 1 FROM organization_members m JOIN organizations o ON o.id = m.organization_id WHERE m.user_id = NEW.user_id AND m.is_active = 1 AND m.id <> NEW.id AND instr(o.path, '/' || organization_member_counts.organization_id || '/') > 0);
END;
--> statement-breakpoint
-- Memberships go before their organization, while its path still names the ancestors to update.
CREATE TRIGGER `organizations_members_first_d` BEFORE DELETE ON `organizations` BEGIN DELETE FROM organization_members WHERE organization_id = OLD.id; END;
