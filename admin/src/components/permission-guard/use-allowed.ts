import { useCan } from '@refinedev/core';
import type { MatchMode } from '../../providers';

/** Where a question is asked: the header's organization when left out; see CanAsk in providers/access-control.ts. */
export interface Where {
  organizationId: number | null;
  /** The row's own context (the tree knows its ancestors), answered from the caller's roles everywhere. */
  ancestorIds?: readonly number[];
}

/** Held in any organization at all. */
export const ANYWHERE = { anywhere: true } as const;

/**
 * useCan for permission codes a screen names itself (a row's rights, a dialog's): the
 * access-control provider answers, as for every resource action. `loading` until it has.
 */
export function useAllowedQuery(codes: string | readonly string[], where?: Where | typeof ANYWHERE, mode: MatchMode = 'all') {
  const list = typeof codes === 'string' ? [codes] : codes;
  const first = list[0] ?? '';
  const { data, isLoading } = useCan({
    resource: first.slice(0, first.lastIndexOf('.')),
    action: first.slice(first.lastIndexOf('.') + 1),
    params: { codes: list, ...(mode === 'any' && { mode }), ...where },
  });
  return { allowed: data?.can ?? false, loading: isLoading };
}

/** useAllowedQuery's answer alone: false until the provider has answered. */
export function useAllowed(codes: string | readonly string[], where?: Where | typeof ANYWHERE, mode: MatchMode = 'all'): boolean {
  return useAllowedQuery(codes, where, mode).allowed;
}

/**
 * A screen's set of rights from one question (a campaign row's, a unit's đoàn phí rights): the
 * provider's refusal names the codes not held. `ready` once it has answered.
 */
export function useRights(codes: readonly string[], where?: Where | typeof ANYWHERE, enabled = true) {
  const first = codes[0] ?? '';
  const { data, isSuccess } = useCan({
    resource: first.slice(0, first.lastIndexOf('.')),
    action: 'rights',
    params: { codes, ...where },
    queryOptions: { enabled },
  });
  const lacking = new Set(data?.can === false ? (data.reason ?? '').split(',') : []);
  return { has: (code: string) => data !== undefined && !lacking.has(code), ready: isSuccess };
}
