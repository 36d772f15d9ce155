import { formatDate, formatVnd } from '@doanhoi/shared';
import { USER_HISTORY_KINDS, type UserHistoryEvent, type UserHistoryKind } from '@doanhoi/shared/schemas/user-history';
import { useList } from '@refinedev/core';
import { Alert, Empty, Flex, Pagination, Select, Spin, Timeline, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import './history.css';

const PAGE_SIZE = 10;
const NS = 'userHistory';

const COLORS: Partial<Record<UserHistoryKind, string>> = {
  joined: 'green',
  transferred: 'blue',
  transfer_requested: 'blue',
  left: 'gray',
  removed: 'red',
  transfer_refused: 'red',
  role_granted: 'green',
  role_revoked: 'red',
  fee_paid: 'green',
  fee_reversed: 'red',
};

/** One event as a sentence: what happened, to whom it was done by, and the day (vi-VN dates, VND). */
function historySentence(e: UserHistoryEvent, t: TFunction): string {
  const values = {
    organization: e.organization?.name ?? t('global'),
    from: e.fromOrganization?.name ?? '',
    to: e.organization?.name ?? '',
    role: e.role?.name ?? '',
    campaign: e.campaign?.name ?? '',
    amount: formatVnd(e.amount ?? 0),
    reason: e.reason ? t(`reasons.${e.reason}`, { defaultValue: e.reason }) : '',
  };
  const key = e.kind === 'left' && !e.reason ? 'sentence.leftNoReason' : `sentence.${e.kind}`;
  let text = t(key, values);
  if (e.actor) text = t('by', { text, actor: e.actor.name });
  return t('at', { text, date: formatDate(e.at) });
}

/** Free text the officer gave (a transfer's reason, a refusal's, an adjustment's) and notes, under the sentence. */
function details(e: UserHistoryEvent, t: TFunction): string[] {
  const out: string[] = [];
  if (e.reason && e.kind !== 'left') out.push(t('reasonLabel', { reason: e.reason }));
  if (e.note) out.push(t('noteLabel', { note: e.note }));
  return out;
}

/** The user's timeline (GET /users/:id/history), newest first, with a filter on one kind of event. */
export function UserHistory({ userId }: { userId: number }) {
  const { t, ready } = useTranslation(NS, { useSuspense: false });
  const [page, setPage] = useState(1);
  const [kind, setKind] = useState<UserHistoryKind | undefined>();
  const { result, query } = useList<UserHistoryEvent>({
    resource: `users/${userId}/history`,
    pagination: { currentPage: page, pageSize: PAGE_SIZE },
    meta: { query: kind ? { kind } : {} },
    errorNotification: false,
  });
  if (!ready) return <Spin />;
  const events = result.data ?? [];
  return (
    <section className="user-history" aria-label={t('title')}>
      <Flex justify="space-between" align="center" wrap gap={8} className="user-history-head">
        <Typography.Title level={5}>{t('title')}</Typography.Title>
        <Select
          allowClear
          aria-label={t('kindFilter')}
          placeholder={t('allKinds')}
          value={kind}
          onChange={(v?: UserHistoryKind) => {
            setKind(v);
            setPage(1);
          }}
          options={USER_HISTORY_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
          className="user-history-filter"
        />
      </Flex>
      {query.isError ? (
        <Alert type="error" showIcon message={t('loadFailed')} />
      ) : query.isLoading ? (
        <Spin />
      ) : events.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('empty')} />
      ) : (
        <>
          <Timeline
            items={events.map((e) => ({
              key: e.id,
              color: COLORS[e.kind] ?? 'gray',
              children: (
                <>
                  <div>{historySentence(e, t)}</div>
                  {details(e, t).map((d) => (
                    <Typography.Text key={d} type="secondary" className="user-history-detail">
                      {d}
                    </Typography.Text>
                  ))}
                </>
              ),
            }))}
          />
          {(result.total ?? 0) > PAGE_SIZE && (
            <Pagination
              size="small"
              align="end"
              current={page}
              pageSize={PAGE_SIZE}
              total={result.total}
              onChange={setPage}
              showSizeChanger={false}
            />
          )}
        </>
      )}
    </section>
  );
}
