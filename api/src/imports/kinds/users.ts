/** Users import (000 §3 columns, §5 rules): create or update users, with memberships and their parents. */
import { hasPermission, normalizeText, PASSWORD_MIN, USER_IMPORT_COLUMNS } from '@doanhoi/shared';
import { eq, inArray } from 'drizzle-orm';
import { defaultPasswordFor, hashPassword } from '../../lib/passwords';
import { addNewUsersMemberships } from '../../organizations/bulk-members';
import { manageRefusals } from '../../users/manage';
import { users } from '../../db/tables/users';
import { translate } from '../../lib/i18n';
import { mapInSlices } from '../batches';
import { cell, checkFields, userRowSchema } from '../row-rules';
import type { CheckedRow, ImportKindDef, Outcome } from '../kind';
import { addableExisting, takesControl } from './user-reach';
import { readMemberRecord } from './member-record';
import { MEMBERSHIP_ALIASES, splitCodes, USER_TYPE_ALIASES, type Existing, type UserRowData } from './user-rows';
import { addMemberships, indexNewUsers, insertUsers, newUser, pauseUsersIndex, updateUser } from './user-writes';
import {
  ancestorsAndSelf,
  chunked,
  classIndex,
  departmentIndex,
  organizationsByCode,
  resolveRef,
  updatableUsers,
  whereIn,
  type RefIndex,
} from '../lookups';
import { allRows, firstRow } from '../../db/engine';
import { flatMapInOrder } from '../../lib/in-order';

/** Looks up a large file's codes a chunk at a time, handing the event loop back in between (issue 12). */
async function slicedWhereIn<R>(values: string[], lookup: (chunk: string[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (const chunk of chunked([...new Set(values.filter(Boolean))])) {
    out.push(...(await lookup(chunk)));
    await new Promise((r) => setImmediate(r));
  }
  return out;
}

export const usersImport: ImportKindDef<UserRowData> = {
  kind: 'users',
  sheetName: 'Người dùng',
  templateName: () => 'users_import_template.xlsx',
  columns: () => USER_IMPORT_COLUMNS,
  tables: ['users', 'organization_members'],

  async check(db, rows, actor, _params, lang = 'vi') {
    const classes = await classIndex(db);
    const depts = await departmentIndex(db);
    const orgMap = await organizationsByCode(
      db,
      rows.flatMap((r) => splitCodes(r.values.organizationCodes)),
    );
    const cols = {
      id: users.id,
      code: users.code,
      familyName: users.familyName,
      givenName: users.givenName,
      email: users.email,
      userType: users.userType,
      classId: users.classId,
      managementDepartmentId: users.managementDepartmentId,
      trainingDepartmentId: users.trainingDepartmentId,
    };
    const byCode = new Map<string, Existing>();
    const byEmail = new Map<string, Existing>();
    const find = (values: string[], column: typeof users.code | typeof users.email) =>
      slicedWhereIn(values, (vs) => whereIn(vs, column, async (c) => await allRows(db.select(cols).from(users).where(c))));
    for (const u of await find(
      rows.map((r) => (r.values.code ?? '').trim()),
      users.code,
    ))
      byCode.set(u.code, u);
    for (const u of await find(
      rows.map((r) => (r.values.email ?? '').trim().toLowerCase()),
      users.email,
    ))
      byEmail.set(u.email, u);
    const existingIds = [...byCode.values(), ...byEmail.values()].map((u) => u.id);
    const updatable = await updatableUsers(db, actor, existingIds);
    // A new e-mail or password hands over the account, a new code, name or type rewrites who it is:
    // the stricter rule of users/manage.ts, as PATCH /users/:id (issue 25 item 8).
    const notManageable = await manageRefusals(db, actor, existingIds, 'users.update');
    const addable = await addableExisting(db, actor, existingIds);
    const canCreateGlobally = hasPermission(actor.roles, 'users.create', null);
    const seenCode = new Map<string, number>();
    const seenEmail = new Map<string, number>();
    const seenExisting = new Map<number, number>();
    // Row messages in the caller's language (issue 26 item 6): data/locales/{vi,en}/imports.json rows.*.
    const tr = (key: string, params?: Record<string, string | number>) => translate(`imports.rows.${key}`, lang, params);

    return mapInSlices(rows, ({ rowNumber, values: v }) => {
      const errors: string[] = [];
      const warnings: string[] = [];
      // The form's rules (shared schema); a phone typed into Excel loses its leading zero first.
      let phone = (v.phone ?? '').replace(/\s+/g, '');
      if (/^[1-9]\d{8}$/.test(phone)) {
        phone = `0${phone}`;
        warnings.push(tr('phoneZero', { phone }));
      }
      const pwRaw = (v.password ?? '').trim();
      const fields = checkFields(
        userRowSchema,
        {
          code: cell(v, 'code'),
          familyName: cell(v, 'familyName'),
          givenName: cell(v, 'givenName'),
          email: cell(v, 'email'),
          password: pwRaw === '-' ? '' : pwRaw,
          ...(phone ? { phone } : {}),
        },
        USER_IMPORT_COLUMNS,
        lang,
      );
      errors.push(...fields.errors);
      const { record, errors: recordErrors } = readMemberRecord(v, lang);
      errors.push(...recordErrors);
      const code = fields.data?.code ?? (v.code ?? '').trim();
      const familyName = fields.data?.familyName ?? (v.familyName ?? '').trim();
      const givenName = fields.data?.givenName ?? (v.givenName ?? '').trim();
      const email = fields.data?.email ?? (v.email ?? '').trim().toLowerCase();
      const emailOk = !!fields.data || (email !== '' && userRowSchema.shape.email.safeParse(email).success);

      const userType = v.userType?.trim() ? USER_TYPE_ALIASES[normalizeText(v.userType)] : 'student';
      if (!userType) errors.push(tr('userTypeInvalid', { value: v.userType }));
      const membershipStatus = v.membershipStatus?.trim() ? MEMBERSHIP_ALIASES[normalizeText(v.membershipStatus)] : 'none';
      if (!membershipStatus) errors.push(tr('membershipInvalid', { value: v.membershipStatus }));

      // In-file duplicates: the first row wins, later ones are errors.
      let duplicate = false;
      if (code && seenCode.has(code)) {
        duplicate = true;
        errors.push(tr('codeRepeated', { code, row: seenCode.get(code)! }));
      }
      if (email && seenEmail.has(email)) {
        duplicate = true;
        errors.push(tr('emailRepeated', { email, row: seenEmail.get(email)! }));
      }
      if (code && !seenCode.has(code)) seenCode.set(code, rowNumber);
      if (email && !seenEmail.has(email)) seenEmail.set(email, rowNumber);

      const byC = code ? byCode.get(code) : undefined;
      const byE = email ? byEmail.get(email) : undefined;
      let existing: Existing | null = null;
      const who = byC ? tr('who.code', { code }) : tr('who.email', { email });
      if (byC && byE && byC.id !== byE.id) errors.push(tr('codeEmailConflict', { code, email }));
      else if (byC || byE) {
        existing = (byC ?? byE)!;
        warnings.push(tr('userExists', { who }));
        if (!duplicate && seenExisting.has(existing.id)) {
          duplicate = true;
          errors.push(tr('sameExisting', { row: seenExisting.get(existing.id)! }));
        } else seenExisting.set(existing.id, rowNumber);
      }

      const password = pwRaw === '' || pwRaw === '-' ? null : pwRaw;
      if (password === null && !existing && emailOk) {
        const dflt = defaultPasswordFor(email);
        warnings.push(tr('defaultPassword', { password: dflt }));
        if (dflt.length < PASSWORD_MIN) warnings.push(tr('defaultPasswordShort', { min: PASSWORD_MIN }));
      }

      const ref = (raw: string | undefined, ix: RefIndex, what: string, current: number | null) => {
        const label = tr(`what.${what}`);
        const text = raw?.trim();
        if (!text) return null;
        const found = resolveRef(ix, text, current);
        if (!found) errors.push(tr('refNotFound', { what: label, text }));
        else if ('ambiguous' in found) errors.push(tr('refAmbiguous', { count: found.ambiguous, what: label, text }));
        else return found.id;
        return null;
      };
      const classId = ref(v.className, classes, 'class', existing?.classId ?? null);
      const managementDepartmentId = ref(
        v.managementDepartmentCode,
        depts,
        'managementDepartment',
        existing?.managementDepartmentId ?? null,
      );
      const trainingDepartmentId = ref(v.trainingDepartmentCode, depts, 'trainingDepartment', existing?.trainingDepartmentId ?? null);

      const organizationIds = new Set<number>();
      for (const c of splitCodes(v.organizationCodes)) {
        const found = orgMap.get(c.toLowerCase()) ?? [];
        if (found.length === 0) errors.push(tr('orgNotFound', { code: c }));
        else if (found.length > 1) errors.push(tr('orgAmbiguous', { code: c }));
        else {
          const o = found[0]!;
          const ids = ancestorsAndSelf(o.path);
          const canCreate = (id: number) =>
            hasPermission(actor.roles, 'users.create', { organizationId: id, ancestorIds: ids.slice(0, ids.indexOf(id)) });
          if (!canCreate(o.id)) errors.push(tr('orgNoRight', { code: c }));
          // Its parents too (000 §4), but never above the importer's reach (as creating a user in the form).
          for (const id of ids) if (id === o.id || canCreate(id)) organizationIds.add(id);
        }
      }
      if (!canCreateGlobally && organizationIds.size === 0 && !existing) errors.push(tr('orgNeeded'));

      return {
        rowNumber,
        errors,
        warnings,
        duplicate,
        existingId: existing?.id ?? null,
        updateDenied: !existing
          ? undefined
          : !updatable.has(existing.id)
            ? tr('userUpdateDenied', { who })
            : notManageable.has(existing.id) &&
                takesControl(existing, {
                  password,
                  code,
                  familyName,
                  givenName,
                  email,
                  userType: 'userType' in v ? (userType ?? existing.userType) : existing.userType,
                })
              ? tr('userManageDenied', { who })
              : organizationIds.size > 0 && !addable.has(existing.id)
                ? tr('outsideReach')
                : undefined,
        data: {
          code,
          familyName,
          givenName,
          email,
          phone: phone || null,
          password,
          userType: userType ?? 'student',
          membershipStatus: membershipStatus ?? 'none',
          classId,
          managementDepartmentId,
          trainingDepartmentId,
          record,
          organizationIds: [...organizationIds],
          present: Object.keys(v),
        },
      };
    });
  },

  /** The file's values; an explicit password is masked, a default one shows what it will be. */
  view(row, values) {
    const d = row.data;
    const password = d.password ? '******' : row.existingId == null && d.email ? defaultPasswordFor(d.email) : '';
    return { ...values, password };
  },

  /** Explicit passwords are hashed with argon2's async API (libuv pool), off the event loop. */
  async prepare(rows) {
    await Promise.all(rows.map(async (r) => (r.data.passwordHash = r.data.password ? await hashPassword(r.data.password) : null)));
  },

  async write(tx, row) {
    const d = row.data;
    const userId = row.existingId ?? (await firstRow(tx.insert(users).values(newUser(d)).returning({ id: users.id }))).id;
    let outcome: Outcome = row.existingId == null ? 'created' : 'unchanged';
    if (
      row.existingId != null &&
      (await updateUser(tx, row.existingId, d, (await firstRow(tx.select().from(users).where(eq(users.id, row.existingId))))!))
    )
      outcome = 'updated';
    if (
      (
        await addMemberships(
          tx,
          d.organizationIds.map((organizationId) => ({ organizationId, userId })),
        )
      ).length > 0 &&
      outcome === 'unchanged'
    )
      outcome = 'updated';
    return outcome;
  },

  /** New users in multi-row inserts, updates only where something changed, memberships in multi-row upserts (set-wise for new users). */
  async writeBatch(tx, rows) {
    const idOf = new Map<CheckedRow<UserRowData>, number>();
    const outcome = new Map<CheckedRow<UserRowData>, Outcome>();
    const fresh = rows.filter((r) => r.existingId == null);
    if (fresh.length) await pauseUsersIndex(tx);
    for (const chunk of chunked(fresh, 200)) {
      const ids = new Map(
        (
          await insertUsers(
            tx,
            chunk.map((r) => newUser(r.data)),
          )
        ).map((u) => [u.code, u.id]),
      );
      for (const r of chunk) {
        idOf.set(r, ids.get(r.data.code)!);
        outcome.set(r, 'created');
      }
    }
    const existing = rows.filter((r) => r.existingId != null);
    const current = new Map(
      await flatMapInOrder(chunked(existing.map((r) => r.existingId!)), async (ids) =>
        (await allRows(tx.select().from(users).where(inArray(users.id, ids)))).map((u) => [u.id, u] as const),
      ),
    );
    for (const r of existing) {
      idOf.set(r, r.existingId!);
      outcome.set(r, (await updateUser(tx, r.existingId!, r.data, current.get(r.existingId!)!)) ? 'updated' : 'unchanged');
    }
    const pairsOf = (rs: CheckedRow<UserRowData>[]) =>
      rs.flatMap((r) => r.data.organizationIds.map((organizationId) => ({ organizationId, userId: idOf.get(r)! })));
    // The users just created join set-wise (figures updated in a few statements, not by a trigger per row).
    const created = pairsOf(fresh);
    if (!(await addNewUsersMemberships(tx, created))) await addMemberships(tx, created);
    if (fresh.length)
      await indexNewUsers(
        tx,
        fresh.map((r) => idOf.get(r)!),
      );
    const joined = new Set((await addMemberships(tx, pairsOf(existing))).map((p) => p.userId));
    return rows.map((r) => (outcome.get(r) === 'unchanged' && joined.has(idOf.get(r)!) ? 'updated' : outcome.get(r)!));
  },
};
