/**
 * The admin's providers against the shared catalogue and the API's list shapes: a typo in a
 * permission code hides a screen's buttons for everyone, and a wrong list key shows an empty table.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PERMISSIONS, type PermissionsResponse } from '@doanhoi/shared';
import { ORGANIZATION_KEY } from '@doanhoi/shared/client/session';
import { resources } from '../resources';
import { accessControlProvider, permissionCode } from './access-control';
import { dataProvider } from './data';
import { httpClient } from './axios-client';
import { clearPermissionsCache, holds } from './permissions';

const CATALOGUE = new Set(PERMISSIONS.map((p) => p.code));

function fakeStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

function permissionsOf(
  codes: string[],
  organizationId: number | null = null,
  roleOrganizationId: number | null = null,
): PermissionsResponse {
  return {
    roles: [
      {
        id: 1,
        name: 'r',
        displayName: 'R',
        organizationId: roleOrganizationId,
        isActive: true,
        permissions: codes.map((code) => ({ code })),
      },
    ],
    permissions: codes,
    isSuperAdmin: false,
    organizationId,
    ancestorIds: [],
  };
}

describe('permissionCode', () => {
  it('asks only for codes of the shared catalogue, for every action each resource has a screen for', () => {
    const routed = resources.filter((r) => r.list && typeof r.meta?.permission === 'string');
    expect(routed.length).toBeGreaterThan(5);
    // A resource that can be created can be deleted (list rows and the bulk bar).
    const actions = (r: (typeof routed)[number]) => [
      'list',
      ...(['show', 'create', 'edit'] as const).filter((a) => r[a]),
      ...(r.create ? ['delete'] : []),
    ];
    const unknown = routed.flatMap((r) =>
      actions(r)
        .map((a) => permissionCode(r.name, a))
        .filter((c) => !c || !CATALOGUE.has(c)),
    );
    expect(unknown).toEqual([]);
  });

  it('maps actions to the catalogue suffixes, with the per-resource overrides', () => {
    expect(permissionCode('users', 'list')).toBe('users.access');
    expect(permissionCode('users', 'show')).toBe('users.view_details');
    expect(permissionCode('users', 'edit')).toBe('users.update');
    expect(permissionCode('users', 'import')).toBe('users.create');
    // The roles API resource lives under the permissions category (000 §2).
    expect(permissionCode('roles', 'delete')).toBe('permissions.delete');
    expect(permissionCode('payment-campaigns', 'show')).toBe('payment-campaigns.read');
  });
});

describe('holds', () => {
  it('applies the shared rule in the response organization: a grant elsewhere does not count', () => {
    expect(holds(permissionsOf(['users.access']), ['users.access'])).toBe(true);
    expect(holds(permissionsOf(['users.access']), ['users.access', 'users.delete'])).toBe(false);
    expect(holds(permissionsOf(['users.access']), ['users.access', 'users.delete'], 'any')).toBe(true);
    expect(holds(permissionsOf(['users.access'], 7, 9), ['users.access'])).toBe(false);
    expect(holds(null, ['users.access'])).toBe(false);
  });
});

describe('accessControlProvider.can', () => {
  let asked: string[];

  beforeEach(() => {
    asked = [];
    clearPermissionsCache();
    vi.stubGlobal('localStorage', fakeStorage({ accessToken: 'token', [ORGANIZATION_KEY]: '7' }));
    // Node's Request needs absolute URLs; the admin calls '/api' against the page's origin.
    vi.stubGlobal(
      'Request',
      class extends Request {
        constructor(input: RequestInfo | URL, init?: RequestInit) {
          super(typeof input === 'string' ? new URL(input, 'http://admin.test') : input, init);
        }
      },
    );
    vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
      const url = new URL(input instanceof Request ? input.url : String(input), 'http://admin.test');
      asked.push(`${url.pathname}${url.search}`);
      const organizationId = url.searchParams.get('organizationId');
      // Users rights in organization 7; catalogue rights only globally.
      const body = organizationId
        ? permissionsOf(['users.access', 'users.update', 'departments.access'], 7, 7)
        : permissionsOf(['departments.access']);
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    });
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    clearPermissionsCache();
  });

  it('answers from the permissions of the working organization and names the missing code', async () => {
    expect(await accessControlProvider.can({ resource: 'users', action: 'edit' })).toEqual({ can: true });
    expect(await accessControlProvider.can({ resource: 'users', action: 'delete' })).toEqual({ can: false, reason: 'users.delete' });
    expect(asked).toEqual(['/api/auth/me/permissions?organizationId=7']);
  });

  it('checks writes to a university-wide catalogue outside any organization', async () => {
    expect(await accessControlProvider.can({ resource: 'departments', action: 'list' })).toEqual({ can: true });
    expect(await accessControlProvider.can({ resource: 'departments', action: 'create' })).toEqual({
      can: false,
      reason: 'departments.create',
    });
    expect(asked).toEqual(['/api/auth/me/permissions?organizationId=7', '/api/auth/me/permissions']);
  });
});

describe('dataProvider.getList', () => {
  afterEach(() => vi.restoreAllMocks());

  async function listOf(resource: string, body: unknown) {
    const get = vi.spyOn(httpClient, 'get').mockResolvedValue({ data: body });
    const res = await dataProvider.getList({
      resource,
      pagination: { currentPage: 2, pageSize: 20 },
      filters: [{ field: 'q', operator: 'contains', value: 'an' }],
    });
    return { res, url: String(get.mock.calls[0]?.[0]) };
  }

  it.each([
    ['users', 'users'],
    ['departments', 'departments'],
    ['classes', 'classes'],
    ['roles', 'data'],
    ['organizations', 'data'],
    ['payment-campaigns', 'campaigns'],
    ['organizations/5/members', 'members'],
  ])('reads the rows of %s from `%s` and the total', async (resource, key) => {
    const { res, url } = await listOf(resource, { [key]: [{ id: 1 }, { id: 2 }], total: 42 });
    expect(res).toEqual({ data: [{ id: 1 }, { id: 2 }], total: 42 });
    const sent = new URL(url, 'http://admin.test');
    expect(sent.pathname).toBe(`/api/${resource}`);
    expect(Object.fromEntries(sent.searchParams)).toEqual({ search: 'an', page: '2', limit: '20' });
  });

  it('keeps a search total the API counted only up to (totalCapped), for "more than"', async () => {
    const { res } = await listOf('users', { users: [{ id: 1 }], total: 10_000, totalCapped: true });
    expect(res).toEqual({ data: [{ id: 1 }], total: 10_000, totalCapped: true });
  });

  it('takes a bare array as the whole list', async () => {
    const { res } = await listOf('organizations/tree', [{ id: 1 }]);
    expect(res).toEqual({ data: [{ id: 1 }], total: 1 });
  });
});

describe('dataProvider.custom', () => {
  afterEach(() => vi.restoreAllMocks());

  it('asks a GET for exactly its path and query (no trailing "?")', async () => {
    const get = vi.spyOn(httpClient, 'get').mockResolvedValue({ data: [{ id: 3 }] });
    expect(await dataProvider.custom!({ url: '/api/organizations/5/child-nodes', method: 'get' })).toEqual({ data: [{ id: 3 }] });
    await dataProvider.custom!({ url: '/api/transfers/units', method: 'get', query: { limit: 20, search: '' } });
    expect(get.mock.calls.map((c) => c[0])).toEqual(['/api/organizations/5/child-nodes', '/api/transfers/units?limit=20&search=']);
  });
});

describe('accessControlProvider.can with codes and a context (useAllowed, useRights)', () => {
  let asked: string[];

  beforeEach(() => {
    asked = [];
    clearPermissionsCache();
    vi.stubGlobal('localStorage', fakeStorage({ accessToken: 'token', [ORGANIZATION_KEY]: '7' }));
    vi.stubGlobal(
      'Request',
      class extends Request {
        constructor(input: RequestInfo | URL, init?: RequestInit) {
          super(typeof input === 'string' ? new URL(input, 'http://admin.test') : input, init);
        }
      },
    );
    // Every answer carries the caller's roles everywhere: here one role in organization 7.
    vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
      const url = new URL(input instanceof Request ? input.url : String(input), 'http://admin.test');
      asked.push(`${url.pathname}${url.search}`);
      const organizationId = Number(url.searchParams.get('organizationId')) || null;
      const body = permissionsOf(['organizations.update', 'organizations.export'], organizationId, 7);
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    });
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    clearPermissionsCache();
  });

  const can = (params: Record<string, unknown>) => accessControlProvider.can({ resource: 'organizations', action: 'rights', params });

  it("answers in a row's own context (its id and ancestors) from the roles everywhere", async () => {
    expect(await can({ codes: ['organizations.update'], organizationId: 9, ancestorIds: [7] })).toEqual({ can: true });
    expect(await can({ codes: ['organizations.update'], organizationId: 3, ancestorIds: [1] })).toEqual({
      can: false,
      reason: 'organizations.update',
    });
    expect(asked).toEqual(['/api/auth/me/permissions']);
  });

  it('names every code not held, so one question answers a set of rights; any-mode needs one', async () => {
    const codes = ['organizations.update', 'organizations.delete', 'organizations.export', 'organizations.create'];
    expect(await can({ codes, organizationId: 7 })).toEqual({ can: false, reason: 'organizations.delete,organizations.create' });
    expect(await can({ codes: ['organizations.delete', 'organizations.export'], mode: 'any', organizationId: 7 })).toEqual({ can: true });
    expect(asked).toEqual(['/api/auth/me/permissions?organizationId=7']);
  });

  it("asks in the header's organization when no context is given, and outside any with organizationId null", async () => {
    expect(await can({ codes: ['organizations.update'] })).toEqual({ can: true });
    expect(await can({ codes: ['organizations.update'], organizationId: null })).toEqual({ can: false, reason: 'organizations.update' });
    expect(asked).toEqual(['/api/auth/me/permissions?organizationId=7', '/api/auth/me/permissions']);
  });
});
