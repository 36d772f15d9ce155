import type { Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';

/**
 * Screenshots of the current page in vi/en × light/dark when SHOTS_DIR is set (nothing otherwise),
 * returning to vi/light; `ready` waits for the screen after each reload.
 */
export async function looks(page: Page, name: string, ready: () => Promise<void>, width = 1366) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const size = page.viewportSize();
  await page.setViewportSize({ width, height: 900 });
  for (const lang of ['vi', 'en']) {
    for (const mode of ['light', 'dark']) {
      await page.evaluate(([l, m]) => (localStorage.setItem('i18nextLng', l!), localStorage.setItem('colorMode', m!)), [lang, mode]);
      await page.reload();
      await ready();
      await page.screenshot({ path: `${dir}/${name}-${lang}-${mode}-${width}.png`, fullPage: true });
    }
  }
  await page.evaluate(() => (localStorage.setItem('i18nextLng', 'vi'), localStorage.setItem('colorMode', 'light')));
  if (size) await page.setViewportSize(size);
  await page.reload();
}
