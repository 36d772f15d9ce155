/**
 * One audit row as a sentence in the officer's language (issue 26): "Trần Minh Khoa đã xóa
 * Nguyễn Văn An khỏi Chi đoàn 22CNTT1". The template is data/locales/<lng>/audit.json
 * `actions["<action code>"]`; the named parts come from the names the API captured when the row
 * was written (labels), then the snapshots, and only then a phrase saying the name was not kept.
 */
import { formatVnd, fullName, type AuditLog } from '@doanhoi/shared';

export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** Action codes are dotted ("user.roles.assign"): looked up as one key inside `actions`. */
const ACTION_KEYS = { keySeparator: '|' } as const;

const rec = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const ids = (v: unknown): number[] => (Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : []);

/** A name the row kept for `<kind>:<id>`. */
export function nameOf(log: AuditLog, kind: string, id: unknown): string | undefined {
  return typeof id === 'number' ? log.labels?.names?.[`${kind}:${id}`] : undefined;
}

function snapshotName(log: AuditLog): string | undefined {
  const s = { ...rec(log.before), ...rec(log.after) };
  if (log.entity === 'user') return fullName(s as { familyName?: string; givenName?: string }) || undefined;
  if (log.entity === 'role') return str(s.displayName) ?? str(s.name);
  if (log.entity === 'fee_level') return str(s.levelName);
  if (log.entity === 'import_session') return str(s.fileName);
  return str(s.name);
}

type Link = { roleId?: unknown; role?: unknown; organizationId?: unknown; isActive?: unknown };
const linkKey = (l: Link) => `${String(l.roleId)}|${String(l.organizationId)}|${String(l.isActive)}`;

/** Role links added and removed by a grant, as "Bí thư tại Chi đoàn 22CNTT1". */
function roleChanges(log: AuditLog, t: Translate): { added: string[]; removed: string[] } {
  const before = (Array.isArray(log.before) ? log.before : []) as Link[];
  const after = (Array.isArray(log.after) ? log.after : []) as Link[];
  const was = new Set(before.map(linkKey));
  const is = new Set(after.map(linkKey));
  const say = (l: Link) =>
    t('audit:parts.roleIn', {
      role: nameOf(log, 'role', l.roleId) ?? str(l.role) ?? t('audit:parts.unnamed', { entity: t('audit:entities.role') }),
      organization:
        l.organizationId == null
          ? t('audit:parts.global')
          : (nameOf(log, 'organization', l.organizationId) ?? t('audit:parts.someOrganization')),
    });
  return { added: after.filter((l) => !was.has(linkKey(l))).map(say), removed: before.filter((l) => !is.has(linkKey(l))).map(say) };
}

const orgNames = (log: AuditLog, list: number[], t: Translate) =>
  list.map((id) => nameOf(log, 'organization', id) ?? t('audit:parts.someOrganization'));

/** Which variant of the template: what a grant or membership change did. */
const variant = (added: string[], removed: string[]) =>
  added.length && removed.length ? undefined : added.length ? 'added' : removed.length ? 'removed' : 'none';

export function auditSentence(log: AuditLog, t: Translate): string {
  const labels = log.labels ?? {};
  const before = rec(log.before);
  const after = rec(log.after);
  const snap = { ...before, ...after };
  const entityType = t(`audit:entities.${log.entity}`, { defaultValue: log.entity }).toLowerCase();
  const target = labels.target ?? snapshotName(log) ?? t('audit:parts.unnamed', { entity: entityType });
  const values: Record<string, unknown> = {
    actor: labels.actor ?? (log.actor ? fullName(log.actor) : t('audit:parts.system')),
    target,
    entityType,
    user: labels.user ?? nameOf(log, 'user', snap.userId) ?? t('audit:parts.someone'),
    organization: labels.organization ?? log.organization?.name ?? t('audit:parts.someOrganization'),
    campaign: labels.campaign ?? nameOf(log, 'payment_campaign', snap.campaignId) ?? t('audit:parts.someCampaign'),
    count: num(after.removed) ?? num(after.importedCount) ?? num(after.sent) ?? num(after.updatedCount) ?? ids(before.userIds).length,
    amount: num(after.amount) === undefined ? '' : formatVnd(num(after.amount)),
  };
  let context: string | undefined;
  if (log.action.startsWith('user.roles.')) {
    const { added, removed } = roleChanges(log, t);
    Object.assign(values, { added: added.join(', '), removed: removed.join(', ') });
    context = variant(added, removed);
  } else if (log.action === 'membership.set') {
    const added = orgNames(log, ids(after.added), t);
    const removed = orgNames(log, ids(after.removed), t);
    Object.assign(values, { added: added.join(', '), removed: removed.join(', ') });
    context = variant(added, removed);
  } else if (log.action === 'payos_config.toggle_active' && typeof after.isActive === 'boolean') {
    context = after.isActive ? 'on' : 'off';
  }
  const generic = t('audit:generic', values);
  return t(`audit:actions|${log.action}`, { ...values, ...ACTION_KEYS, context, defaultValue: generic });
}
