-- Custom SQL migration file, put your code below! --
-- Issue 15: fill audit_logs.organization_id for rows written before the column existed, by the
-- rules of api/src/audit/organization.ts (rows whose owner can no longer be found stay NULL:
-- only global readers see them).
UPDATE `audit_logs` SET `organization_id` = CASE
  WHEN `entity` = 'organization' THEN COALESCE(
    (SELECT o.`id` FROM `organizations` o WHERE o.`id` = CAST(`audit_logs`.`entity_id` AS INTEGER)),
    json_extract(CASE WHEN json_valid(`before`) THEN `before` END, '$.parentId'))
  WHEN `entity` = 'payment_campaign' THEN COALESCE(
    (SELECT c.`organization_id` FROM `payment_campaigns` c WHERE c.`id` = CAST(`audit_logs`.`entity_id` AS INTEGER)),
    json_extract(CASE WHEN json_valid(`before`) THEN `before` END, '$.organizationId'))
  WHEN `entity` = 'payos_config' THEN COALESCE(
    (SELECT p.`organization_id` FROM `payos_configs` p WHERE p.`id` = CAST(`audit_logs`.`entity_id` AS INTEGER)),
    json_extract(CASE WHEN json_valid(`before`) THEN `before` END, '$.organizationId'))
  WHEN `entity` = 'fee_level' THEN (SELECT c.`organization_id` FROM `payment_campaigns` c WHERE c.`id` = COALESCE(
    (SELECT f.`campaign_id` FROM `fee_levels` f WHERE f.`id` = CAST(`audit_logs`.`entity_id` AS INTEGER)),
    json_extract(CASE WHEN json_valid(`before`) THEN `before` END, '$.campaignId')))
  WHEN `entity` = 'payment_assignment' THEN (SELECT c.`organization_id` FROM `payment_campaigns` c WHERE c.`id` = COALESCE(
    (SELECT a.`campaign_id` FROM `payment_assignments` a WHERE a.`id` = CAST(`audit_logs`.`entity_id` AS INTEGER)),
    json_extract(CASE WHEN json_valid(`before`) THEN `before` END, '$.campaignId')))
  WHEN `entity` = 'payment_order' THEN (SELECT c.`organization_id` FROM `payment_campaigns` c WHERE c.`id` =
    (SELECT po.`campaign_id` FROM `payment_orders` po WHERE po.`id` = CAST(`audit_logs`.`entity_id` AS INTEGER)))
END
WHERE `organization_id` IS NULL AND `entity` IN ('organization', 'payment_campaign', 'payos_config', 'fee_level', 'payment_assignment', 'payment_order');
