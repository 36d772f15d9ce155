import { chromium } from '@playwright/test';
import { emulateFast3g, recordTransfers } from '../helpers/transfer';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
for (let i = 0; i < 4; i++) {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, locale: 'vi-VN', isMobile: true, hasTouch: true });
  await page.addInitScript(() => {
    const w = window as any;
    new MutationObserver(() => {
      if (!w.__btn && document.querySelector('[data-testid=portal-login-form] button')) { w.__btn = performance.now(); requestAnimationFrame(() => { w.__raf = performance.now(); setTimeout(() => (w.__paint = performance.now()), 0); }); }
      if (!w.__root && document.getElementById('root')?.firstChild) w.__root = performance.now();
    }).observe(document, { subtree: true, childList: true });
    addEventListener('DOMContentLoaded', () => (w.__dcl = performance.now()));
  });
  const log = await recordTransfers(page);
  await emulateFast3g(log.cdp);
  const start = Date.now();
  await page.goto('http://localhost:4303/payment/login', { waitUntil: 'commit' });
  const commit = Date.now() - start;
  await page.getByTestId('portal-login-form').getByRole('button', { name: 'Đăng nhập', exact: true }).waitFor();
  const usable = Date.now() - start;
  const t = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const res = performance.getEntriesByType('resource').map((r: any) => `${r.name.split('/').pop()} start ${r.startTime.toFixed(0)} reqStart ${r.requestStart.toFixed(0)} respStart ${r.responseStart.toFixed(0)} end ${r.responseEnd.toFixed(0)}`);
    return { raf: (window as any).__raf?.toFixed(0), paint: (window as any).__paint?.toFixed(0), fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime.toFixed(0), btn: (window as any).__btn?.toFixed(0), root: (window as any).__root?.toFixed(0), dclAt: (window as any).__dcl?.toFixed(0), navRespStart: nav.responseStart.toFixed(0), navRespEnd: nav.responseEnd.toFixed(0), domInteractive: nav.domInteractive.toFixed(0), dcl: nav.domContentLoadedEventEnd.toFixed(0), res, now: performance.now().toFixed(0) };
  });
  console.log(commit, usable, JSON.stringify(t));
  await page.close();
}
await browser.close();
