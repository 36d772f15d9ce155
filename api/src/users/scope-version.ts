/**
 * Which cache version follows who is in a subtree: the subtrees under one second-level unit share a
 * bucket (its id modulo 16), the top-level units one of their own (drizzle-pg 0036's member_scopes rows;
 * SQLite 0052's membership triggers). A membership that leaves every subtree's members as they were (a
 * second chi đoàn under the same faculty) moves none of them.
 */
import { MEMBER_BUCKETS, type MemberBucket, type Table } from '../lib/freshness';

/** The bucket of a subtree at or below a second-level unit ('/1/5/23/' → 5 % 16), else null: a top-level unit's. */
export function memberBucket(path: string): MemberBucket | null {
  const second = Number(path.split('/')[2]);
  return Number.isInteger(second) && second > 0 ? ((second % MEMBER_BUCKETS) as MemberBucket) : null;
}

/** The version of who is in the subtree at `path` (freshness.scope_bucket, drizzle-pg 0036). */
export function scopeVersion(path: string): Table {
  const b = memberBucket(path);
  return b === null ? 'member_scopes:top' : `member_scopes:${b}`;
}
