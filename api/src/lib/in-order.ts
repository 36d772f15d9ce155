/**
 * Array callbacks that await the database, run one item after another in order (issue 29 item 2):
 * the same order of statements as the synchronous code had, and never several statements of one
 * request in flight on a connection at once.
 */
type Step<T, R> = (item: T, index: number) => R | Promise<R>;

export async function mapInOrder<T, R>(items: Iterable<T>, fn: Step<T, R>): Promise<R[]> {
  const out: R[] = [];
  let i = 0;
  for (const item of items) out.push(await fn(item, i++));
  return out;
}

export async function flatMapInOrder<T, R>(items: Iterable<T>, fn: Step<T, R | readonly R[]>): Promise<R[]> {
  const out: R[] = [];
  let i = 0;
  for (const item of items) {
    const r = await fn(item, i++);
    if (Array.isArray(r)) out.push(...(r as readonly R[]));
    else out.push(r as R);
  }
  return out;
}

export async function filterInOrder<T>(items: Iterable<T>, fn: Step<T, unknown>): Promise<T[]> {
  const out: T[] = [];
  let i = 0;
  for (const item of items) if (await fn(item, i++)) out.push(item);
  return out;
}

export async function someInOrder<T>(items: Iterable<T>, fn: Step<T, unknown>): Promise<boolean> {
  let i = 0;
  for (const item of items) if (await fn(item, i++)) return true;
  return false;
}

export async function forEachInOrder<T>(items: Iterable<T>, fn: Step<T, unknown>): Promise<void> {
  let i = 0;
  for (const item of items) await fn(item, i++);
}
