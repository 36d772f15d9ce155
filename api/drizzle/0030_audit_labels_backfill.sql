-- Custom SQL migration file, put your code below! --
-- Issue 26: rows written before audit_logs.labels get the names their records bear now, where
-- those records still exist (json_patch drops the names it cannot find); the admin falls back
-- to the names inside the snapshots for the rest.
UPDATE audit_logs SET labels = json_patch('{}', json_object(
  'actor', (SELECT trim(u.family_name || ' ' || u.given_name) FROM users u WHERE u.id = audit_logs.actor_id),
  'target', CASE audit_logs.entity
    WHEN 'user' THEN (SELECT trim(u.family_name || ' ' || u.given_name) FROM users u WHERE u.id = CAST(audit_logs.entity_id AS INTEGER))
    WHEN 'organization' THEN (SELECT o.name FROM organizations o WHERE o.id = CAST(audit_logs.entity_id AS INTEGER))
    WHEN 'role' THEN (SELECT r.display_name FROM roles r WHERE r.id = CAST(audit_logs.entity_id AS INTEGER))
    WHEN 'department' THEN (SELECT d.name FROM departments d WHERE d.id = CAST(audit_logs.entity_id AS INTEGER))
    WHEN 'class' THEN (SELECT c.name FROM classes c WHERE c.id = CAST(audit_logs.entity_id AS INTEGER))
    WHEN 'payment_campaign' THEN (SELECT c.name FROM payment_campaigns c WHERE c.id = CAST(audit_logs.entity_id AS INTEGER))
    WHEN 'fee_level' THEN (SELECT f.level_name FROM fee_levels f WHERE f.id = CAST(audit_logs.entity_id AS INTEGER))
    WHEN 'import_session' THEN (SELECT s.file_name FROM import_sessions s WHERE s.id = audit_logs.entity_id)
    WHEN 'payment_assignment' THEN (SELECT trim(u.family_name || ' ' || u.given_name) FROM payment_assignments a JOIN users u ON u.id = a.user_id WHERE a.id = CAST(audit_logs.entity_id AS INTEGER))
  END,
  'organization', (SELECT o.name FROM organizations o WHERE o.id = audit_logs.organization_id)
))
WHERE labels IS NULL;
