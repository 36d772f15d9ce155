-- The users list's filtered totals (users/schema.ts userFacetCounts), kept by triggers as
-- organization_member_counts (0007) and member_figures (0016) are: organization 0 counts every
-- user; any other organization counts the distinct users with an active membership in its
-- subtree, so a membership moves a count only in the organizations that no other active
-- membership of the user already covers. Users' memberships go before the user (0016's
-- users_members_first_d) and an organization's before it, so the user's combination is still
-- readable when they are taken out.
INSERT INTO user_facet_counts (organization_id, user_type, membership_status, is_active, n)
SELECT 0, user_type, membership_status, is_active, count(*) FROM users GROUP BY 2, 3, 4
UNION ALL SELECT uo.org, u.user_type, u.membership_status, u.is_active, count(*) FROM (SELECT DISTINCT m.user_id, j.value AS org FROM organization_members m JOIN organizations o ON o.id = m.organization_id, json_each('[' || replace(trim(o.path, '/'), '/', ',') || ']') j WHERE m.is_active = 1) uo JOIN users u ON u.id = uo.user_id GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
CREATE TRIGGER `user_facets_u_i` AFTER INSERT ON `users` BEGIN
  INSERT INTO user_facet_counts (organization_id, user_type, membership_status, is_active, n) SELECT 0, NEW.user_type, NEW.membership_status, NEW.is_active, 1 WHERE 1 ON CONFLICT (organization_id, user_type, membership_status, is_active) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER `user_facets_u_d` AFTER DELETE ON `users` BEGIN
  INSERT INTO user_facet_counts (organization_id, user_type, membership_status, is_active, n) SELECT 0, OLD.user_type, OLD.membership_status, OLD.is_active, -1 WHERE 1 ON CONFLICT (organization_id, user_type, membership_status, is_active) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER `user_facets_u_u` AFTER UPDATE OF user_type, membership_status, is_active ON `users` WHEN OLD.user_type <> NEW.user_type OR OLD.membership_status <> NEW.membership_status OR OLD.is_active <> NEW.is_active BEGIN
  INSERT INTO user_facet_counts (organization_id, user_type, membership_status, is_active, n) SELECT x.value, OLD.user_type, OLD.membership_status, OLD.is_active, -1 FROM (SELECT 0 AS value UNION SELECT j.value FROM organization_members m JOIN organizations o ON o.id = m.organization_id, json_each('[' || replace(trim(o.path, '/'), '/', ',') || ']') j WHERE m.user_id = NEW.id AND m.is_active = 1) x WHERE 1 ON CONFLICT (organization_id, user_type, membership_status, is_active) DO UPDATE SET n = n + excluded.n;
  INSERT INTO user_facet_counts (organization_id, user_type, membership_status, is_active, n) SELECT x.value, NEW.user_type, NEW.membership_status, NEW.is_active, 1 FROM (SELECT 0 AS value UNION SELECT j.value FROM organization_members m JOIN organizations o ON o.id = m.organization_id, json_each('[' || replace(trim(o.path, '/'), '/', ',') || ']') j WHERE m.user_id = NEW.id AND m.is_active = 1) x WHERE 1 ON CONFLICT (organization_id, user_type, membership_status, is_active) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER `user_facets_m_i` AFTER INSERT ON `organization_members` WHEN NEW.is_active = 1 BEGIN
  INSERT INTO user_facet_counts (organization_id, user_type, membership_status, is_active, n) SELECT x.value, u.user_type, u.membership_status, u.is_active, 1 FROM users u, (SELECT value FROM json_each((SELECT '[' || replace(trim(path, '/'), '/', ',') || ']' FROM organizations WHERE id = NEW.organization_id)) WHERE NOT EXISTS (SELECT 1 FROM organization_members m JOIN organizations o ON o.id = m.organization_id WHERE m.user_id = NEW.user_id AND m.is_active = 1 AND m.id <> NEW.id AND instr(o.path, '/' || value || '/') > 0)) x WHERE u.id = NEW.user_id ON CONFLICT (organization_id, user_type, membership_status, is_active) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER `user_facets_m_d` AFTER DELETE ON `organization_members` WHEN OLD.is_active = 1 BEGIN
  INSERT INTO user_facet_counts (organization_id, user_type, membership_status, is_active, n) SELECT x.value, u.user_type, u.membership_status, u.is_active, -1 FROM users u, (SELECT value FROM json_each((SELECT '[' || replace(trim(path, '/'), '/', ',') || ']' FROM organizations WHERE id = OLD.organization_id)) WHERE NOT EXISTS (SELECT 1 FROM organization_members m JOIN organizations o ON o.id = m.organization_id WHERE m.user_id = OLD.user_id AND m.is_active = 1 AND m.id <> OLD.id AND instr(o.path, '/' || value || '/') > 0)) x WHERE u.id = OLD.user_id ON CONFLICT (organization_id, user_type, membership_status, is_active) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER `user_facets_m_u` AFTER UPDATE OF is_active, organization_id, user_id ON `organization_members` BEGIN
  INSERT INTO user_facet_counts (organization_id, user_type, membership_status, is_active, n) SELECT x.value, u.user_type, u.membership_status, u.is_active, -1 FROM users u, (SELECT value FROM json_each((SELECT '[' || replace(trim(path, '/'), '/', ',') || ']' FROM organizations WHERE id = OLD.organization_id)) WHERE NOT EXISTS (SELECT 1 FROM organization_members m JOIN organizations o ON o.id = m.organization_id WHERE m.user_id = OLD.user_id AND m.is_active = 1 AND m.id <> OLD.id AND instr(o.path, '/' || value || '/') > 0)) x WHERE u.id = OLD.user_id AND OLD.is_active = 1 ON CONFLICT (organization_id, user_type, membership_status, is_active) DO UPDATE SET n = n + excluded.n;
  INSERT INTO user_facet_counts (organization_id, user_type, membership_status, is_active, n) SELECT x.value, u.user_type, u.membership_status, u.is_active, 1 FROM users u, (SELECT value FROM json_each((SELECT '[' || replace(trim(path, '/'), '/', ',') || ']' FROM organizations WHERE id = NEW.organization_id)) WHERE NOT EXISTS (SELECT 1 FROM organization_members m JOIN organizations o ON o.id = m.organization_id WHERE m.user_id = NEW.user_id AND m.is_active = 1 AND m.id <> NEW.id AND instr(o.path, '/' || value || '/') > 0)) x WHERE u.id = NEW.user_id AND NEW.is_active = 1 ON CONFLICT (organization_id, user_type, membership_status, is_active) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER `user_facets_o_d` AFTER DELETE ON `organizations` BEGIN
  DELETE FROM user_facet_counts WHERE organization_id = OLD.id;
END;
