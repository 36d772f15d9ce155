/** The campaign status machine of 001 §4 and the read-only rule for finished campaigns. */
import type { CampaignStatus } from '@doanhoi/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { conflict, notFound } from '../lib/errors';
import { paymentCampaigns } from '../db/tables/payments';
import type { CampaignRow } from './mappers';
import { firstRow } from '../db/engine';

export const STATUS_LABEL: Record<CampaignStatus, string> = {
  DRAFT: 'Nháp',
  ACTIVE: 'Đang hoạt động',
  COMPLETED: 'Đã hoàn thành',
  CANCELLED: 'Đã hủy',
};

export type CampaignAction = 'activate' | 'complete' | 'cancel';

/** Every legal transition; anything else is refused with 409. */
export const TRANSITIONS: Record<CampaignAction, { from: CampaignStatus; to: CampaignStatus }> = {
  activate: { from: 'DRAFT', to: 'ACTIVE' },
  complete: { from: 'ACTIVE', to: 'COMPLETED' },
  cancel: { from: 'ACTIVE', to: 'CANCELLED' },
};

export function nextStatus(current: CampaignStatus, action: CampaignAction): CampaignStatus {
  const t = TRANSITIONS[action];
  if (current !== t.from) {
    conflict(
      `Không thể chuyển đợt thu từ trạng thái "${STATUS_LABEL[current]}" sang "${STATUS_LABEL[t.to]}": chỉ đợt thu "${STATUS_LABEL[t.from]}" mới thực hiện được thao tác này`,
    );
  }
  return t.to;
}

export const CAMPAIGN_NOT_FOUND = 'Không tìm thấy đợt thu';

export async function loadCampaign(db: Pick<Db, 'select'>, id: number): Promise<CampaignRow> {
  const row = await firstRow(db.select().from(paymentCampaigns).where(eq(paymentCampaigns.id, id)));
  if (!row) notFound(CAMPAIGN_NOT_FOUND);
  return row!;
}

/** COMPLETED and CANCELLED campaigns freeze their fee levels, assignments and payOS config (001 §4). */
export function assertWritable(c: Pick<CampaignRow, 'status'>, what = 'thay đổi dữ liệu'): void {
  if (c.status === 'COMPLETED' || c.status === 'CANCELLED') {
    conflict(`Đợt thu ${STATUS_LABEL[c.status].toLowerCase()}: không thể ${what}`);
  }
}
