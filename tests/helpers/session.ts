import { ORGANIZATION_KEY, SESSION_KEYS } from '@doanhoi/shared/client/session';
import { expect, type Page } from '@playwright/test';

let signIns = 0;

/**
 * Sign in as the login page would (POST /api/auth/login, then the profile), store the session
 * where the admin keeps it and open `to`: one page load instead of the login page, the
 * dashboard and then `to`. Journeys about the sign-in screen itself use signInThroughPage.
 */
export async function signIn(page: Page, account: { email: string; password: string }, to = '/') {
  const request = page.context().request;
  const login = await request.post('/api/auth/login', { data: account });
  expect(login.status(), `sign-in of ${account.email}`).toBe(200);
  const { accessToken, refreshToken } = (await login.json()) as { accessToken: string; refreshToken: string };
  const profile = await request.get('/api/auth/profile', { headers: { authorization: `Bearer ${accessToken}` } });
  expect(profile.status()).toBe(200);
  const user = await profile.text();
  // Once per sign-in, on the first document of the site: a later sign-out must stay signed out.
  await page.addInitScript(
    ({ key, keys, organizationKey, accessToken, refreshToken, user }) => {
      try {
        if (location.protocol !== 'http:' || sessionStorage.getItem(key)) return;
        sessionStorage.setItem(key, '1');
        localStorage.removeItem(organizationKey);
        localStorage.setItem(keys.access, accessToken);
        localStorage.setItem(keys.refresh, refreshToken);
        localStorage.setItem(keys.user, user);
      } catch {
        // about:blank and other opaque origins have no storage to fill
      }
    },
    { key: `e2e-sign-in-${++signIns}`, keys: SESSION_KEYS, organizationKey: ORGANIZATION_KEY, accessToken, refreshToken, user },
  );
  await page.goto(to);
  await expect(page).not.toHaveURL(/\/login/);
}

/**
 * Moves the open admin to `path` as its menu links do: a history entry for the router, no page
 * load. A full load costs this machine 3–4 s of browser CPU (parsing, the first render, the
 * styles), most of what a journey spends; journeys about deep links, reloads or the refusal of a
 * typed URL keep page.goto.
 */
export async function navigate(page: Page, path: string) {
  const arrived = (url: URL) => url.pathname.startsWith(new URL(path, url).pathname);
  // A list that writes its filters into the URL a moment late (a busy machine) replaces the
  // entry pushed here with its own: push again until the router stays on `path`.
  let pushed = false;
  await expect(async () => {
    // Always once (a tab of the page already open differs only in its query), then while replaced.
    if (!pushed || !arrived(new URL(page.url()))) {
      pushed = true;
      await page.evaluate((to) => {
        // The router's own entry shape ({ usr, key, idx }), so its back and forward keep counting.
        const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
        window.history.pushState({ usr: null, key: Math.random().toString(36).slice(2, 10), idx: idx + 1 }, '', to);
        window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
      }, path);
    }
    await expect(page).toHaveURL(arrived, { timeout: 2_000 });
    await page.waitForTimeout(100);
    expect(arrived(new URL(page.url())), `still on ${path}`).toBe(true);
  }).toPass({ timeout: 15_000 });
}

/** Sign in through the admin's login page and wait to leave it. */
export async function signInThroughPage(page: Page, account: { email: string; password: string }, to = '/') {
  await page.goto(to === '/' ? '/login' : `/login?to=${encodeURIComponent(to)}`);
  const form = page.getByTestId('login-form');
  await form.getByLabel('Email').fill(account.email);
  await form.getByLabel('Mật khẩu').fill(account.password);
  await form.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

/** Sign in through the API (no page) and return the access token, for test setup. */
export async function apiLogin(baseURL: string, account: { email: string; password: string }): Promise<string> {
  const res = await fetch(`${baseURL}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  if (!res.ok) throw new Error(`login failed ${res.status}`);
  return ((await res.json()) as { accessToken: string }).accessToken;
}
