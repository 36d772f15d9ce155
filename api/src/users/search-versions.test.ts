/**
 * A users search follows 'users:words' when none of its pieces begins with a digit, else 'users:search'
 * (search.ts searchVersion): a phone change moves only the second (drizzle-pg 0015, SQLite 0051), so the
 * name searches' counts, checkpoints and prefix expansions survive it in every process. Whatever is kept,
 * what another process writes is in the next answer: names, phones, new words beginning a known prefix.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentStamp, inReadEpoch } from '../lib/freshness';
import { makeTestApp, type TestApp } from '../test/harness';
import { elsewhere, insertUser } from './fixture';
import { searchVersion, userSearchText } from './search';

const dir = mkdtempSync(join(tmpdir(), 'search-versions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let t: TestApp;
let ids: number[];
const people = [
  { familyName: 'Nguyễn Văn', givenName: 'An', code: 'SVV1', email: 'an@sv.vn', phone: '0901111111' },
  { familyName: 'Nguyễn Thị', givenName: 'Bình', code: 'SVV2', email: 'binh@sv.vn', phone: '0902222222' },
  { familyName: 'Trần Văn', givenName: 'Châu', code: 'SVV3', email: 'chau@sv.vn', phone: '0903333333' },
];

beforeAll(async () => {
  t = await makeTestApp({}, join(dir, 'search.db'));
  ids = [];
  for (const p of people) ids.push(await insertUser(t, p));
});

const total = async (search: string) => {
  const res = await t.request('GET', `/api/users?search=${encodeURIComponent(search)}&limit=50`, { token: t.adminToken });
  expect(res.status).toBe(200);
  return res.body.total as number;
};

/** Another process changes a user's columns (search_text kept as the app writes it). */
async function changeElsewhere(i: number, over: Partial<(typeof people)[number]>) {
  const p = { ...people[i]!, ...over };
  people[i] = p;
  const q = (v: string) => `'${v.replace(/'/g, "''")}'`;
  await elsewhere(
    t.db,
    `UPDATE users SET family_name = ${q(p.familyName)}, given_name = ${q(p.givenName)}, phone = ${q(p.phone)}, search_text = ${q(userSearchText(p))} WHERE id = ${ids[i]}`,
  );
}

describe('search versions', () => {
  it('names a search by whether a piece of its words begins with a digit', () => {
    expect(searchVersion(['nguyen', 'van'])).toBe('users:words');
    expect(searchVersion(['an@sv.vn'])).toBe('users:words');
    expect(searchVersion(['0901'])).toBe('users:search');
    expect(searchVersion(['nguyen', 'an.09'])).toBe('users:search');
  });

  it('a phone changed by another process is found by the next phone search; name searches keep their answers', async () => {
    expect(await total('nguyen')).toBe(2);
    expect(await total('ng')).toBe(2);
    expect(await total('0909')).toBe(0);
    const words = await inReadEpoch(() => currentStamp(t.db, ['users:words']));
    const search = await inReadEpoch(() => currentStamp(t.db, ['users:search']));
    await changeElsewhere(2, { phone: '0909999999' });
    expect(await total('0909')).toBe(1);
    expect(await total('0903')).toBe(0);
    expect(await total('nguyen')).toBe(2);
    expect(await inReadEpoch(() => currentStamp(t.db, ['users:search']))).not.toBe(search);
    // Both engines keep what name searches counted (drizzle-pg 0015, SQLite 0051).
    expect(await inReadEpoch(() => currentStamp(t.db, ['users:words']))).toBe(words);
  });

  it('a phone with spaces keeps the name searches; a code ending in a digit changed before the phone does not', async () => {
    const words = () => inReadEpoch(() => currentStamp(t.db, ['users:words']));
    const before = await words();
    await changeElsewhere(0, { phone: '090 111 2222' });
    expect(await words()).toBe(before);
    expect(await total('090 111')).toBe(1);
    // The code 'SVV1' → 'SVV9' ends in a digit too, but it begins with letters: 'svv9' finds it now.
    people[0] = { ...people[0]!, code: 'SVV9' };
    await changeElsewhere(0, {});
    expect(await words()).not.toBe(before);
    expect(await total('svv9')).toBe(1);
    expect(await total('svv1')).toBe(0);
  });

  it('a name changed by another process, or a new word under a known prefix, is in the next name search', async () => {
    expect(await total('nguyen')).toBe(2);
    expect(await total('ng')).toBe(2);
    await changeElsewhere(2, { familyName: 'Nguyễn Văn' });
    expect(await total('nguyen')).toBe(3);
    expect(await total('tran')).toBe(0);
    // 'ngo' is a word no user had: the prefix 'ng' kept its expansion until now.
    await changeElsewhere(0, { familyName: 'Ngô Văn' });
    expect(await total('ng')).toBe(3);
    expect(await total('ngo')).toBe(1);
    expect(await total('nguyen')).toBe(2);
    // A change only after the phone that still touches a word beginning with a letter moves 'users:words'.
    const words = await inReadEpoch(() => currentStamp(t.db, ['users:words']));
    await changeElsewhere(1, { phone: '0902222222 ext' });
    expect(await inReadEpoch(() => currentStamp(t.db, ['users:words']))).not.toBe(words);
    expect(await total('ext')).toBe(1);
  });
});
