import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ORGANIZATION_KEY, session } from './session';

let data: Map<string, string>;

beforeEach(() => {
  data = new Map();
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  });
});

afterEach(() => vi.unstubAllGlobals());

describe('session', () => {
  it('is complete only with both tokens and a readable user', () => {
    session.setTokens('a', 'r');
    expect(session.isComplete()).toBe(false);
    data.set('user', '{not json');
    expect(session.user()).toBeNull();
    expect(session.isComplete()).toBe(false);
    session.setUser({ id: 1 } as never);
    expect(session.isComplete()).toBe(true);
    expect([data.get('accessToken'), data.get('refreshToken')]).toEqual(['a', 'r']);
  });

  it('clear() drops the session keys; signOut() also the working organization', () => {
    const fill = () => ['accessToken', 'refreshToken', 'user', ORGANIZATION_KEY, 'i18nextLng'].forEach((k) => data.set(k, '1'));
    fill();
    session.clear();
    expect([...data.keys()].sort()).toEqual([ORGANIZATION_KEY, 'i18nextLng'].sort());
    fill();
    session.signOut();
    expect([...data.keys()]).toEqual(['i18nextLng']);
  });
});
