/**
 * A fee's row on the portal's "My fees", found as a member would: by typing the campaign's name in
 * the search box. The list shows 10 fees a page, sorted by due date, and journeys running beside
 * this one give the same demo member fees of their own, so a fresh campaign may sit on page 2.
 */
import type { Locator, Page } from '@playwright/test';

export async function feeRow(page: Page, campaignName: string): Promise<Locator> {
  await page.getByTestId('my-campaigns').getByRole('searchbox').fill(campaignName);
  return page.getByTestId('assignment-row').filter({ hasText: campaignName });
}
