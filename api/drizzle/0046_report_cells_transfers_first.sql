-- A unit's transfers go before the unit (as its memberships do, 0007 organizations_members_first_d), so report_cells_t_d
-- (0039) takes an accepted transfer's mark off while the cells still count the unit above as having units beneath it.
-- Left to the foreign key's cascade, it ran after the unit's row was gone: deleting a unit an accepted transfer came
-- from, into the unit above it that the delete leaves with none beneath it, counted that member there twice.
CREATE TRIGGER `organizations_transfers_first_d` BEFORE DELETE ON `organizations` BEGIN
  DELETE FROM transfers WHERE from_organization_id = OLD.id OR to_organization_id = OLD.id;
END;
