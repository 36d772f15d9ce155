/** Callers for the catalogue authorization matrices (departments and classes share the rule). */
import type { TestApp } from '../test/harness';

export type ActorName = 'superAdmin' | 'global' | 'orgInside' | 'orgOutside' | 'otherCodes' | 'noRoles';

export interface MatrixActor {
  name: ActorName;
  token: string;
  /** Query suffix naming an organization, to show that naming one never unlocks a write. */
  orgQuery: string;
}

/**
 * superAdmin; a global holder of every `codes`; org-scoped holders of the same codes, one calling
 * with its own (descendant) organization named and one naming an organization outside its subtree;
 * a global holder of unrelated codes; a user with no roles.
 */
export async function catalogueActors(t: TestApp, prefix: string, codes: string[]) {
  const root = t.createOrg('doan_truong', `${prefix}-ROOT`);
  const faculty = t.createOrg('doan_co_so', `${prefix}-F1`, root);
  const chiDoan = t.createOrg('chi_doan', `${prefix}-F1-C1`, faculty);
  const otherFaculty = t.createOrg('doan_co_so', `${prefix}-F2`, root);
  const full = t.createRole(`${prefix}_full`, codes);
  const other = t.createRole(`${prefix}_other`, ['users.access', 'organizations.access']);
  const global = await t.createUser(`${prefix}G`, [{ roleId: full }]);
  const orgScoped = await t.createUser(`${prefix}O`, [{ roleId: full, organizationId: faculty }]);
  const otherCodes = await t.createUser(`${prefix}X`, [{ roleId: other }]);
  const noRoles = await t.createUser(`${prefix}N`);
  const actors: MatrixActor[] = [
    { name: 'superAdmin', token: t.adminToken, orgQuery: '' },
    { name: 'global', token: global.token, orgQuery: '' },
    { name: 'orgInside', token: orgScoped.token, orgQuery: `?organizationId=${chiDoan}` },
    { name: 'orgOutside', token: orgScoped.token, orgQuery: `?organizationId=${otherFaculty}` },
    { name: 'otherCodes', token: otherCodes.token, orgQuery: '' },
    { name: 'noRoles', token: noRoles.token, orgQuery: '' },
  ];
  return { actors, orgs: { root, faculty, chiDoan, otherFaculty } };
}

/** Reads: the code held anywhere. Writes: held globally (or super admin). */
export const READERS: ActorName[] = ['superAdmin', 'global', 'orgInside', 'orgOutside'];
export const WRITERS: ActorName[] = ['superAdmin', 'global'];
