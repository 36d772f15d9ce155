import type { Result, Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';

/** Distinct method-and-path pairs kept; past it the memo starts again (ids make paths many). */
const MAX_PATHS = 2_000;

/**
 * Hono's default router with its answers kept per method and path. Our fixed paths beside `:id`
 * ones (`/users/template` and `/users/:id`) make Hono's RegExpRouter refuse the routes, so its
 * SmartRouter settles on the TrieRouter, which walks the tree and builds a new answer for every
 * request: 4 KB of garbage and a few microseconds each (docs/benchmark.md). An answer depends on
 * the method and path alone, and Hono only reads it (RegExpRouter hands out one shared answer per
 * static path itself), so a request for a path seen before takes the kept one.
 */
export class MemoRouter<T> implements Router<T> {
  readonly name = 'MemoRouter';
  readonly #router: Router<T> = new SmartRouter<T>({ routers: [new RegExpRouter<T>(), new TrieRouter<T>()] });
  readonly #answers = new Map<string, Result<T>>();

  // Hono's routers refuse a route once they have matched: no kept answer can go stale.
  add(method: string, path: string, handler: T): void {
    this.#router.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    const key = `${method} ${path}`;
    let answer = this.#answers.get(key);
    if (answer === undefined) {
      answer = this.#router.match(method, path);
      if (this.#answers.size >= MAX_PATHS) this.#answers.clear();
      this.#answers.set(key, answer);
    }
    return answer;
  }
}
