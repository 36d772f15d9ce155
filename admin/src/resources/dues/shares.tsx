import type { DuesShare } from '@doanhoi/shared';
import { useCustom, useCustomMutation, useInvalidate, useTranslate } from '@refinedev/core';
import { Button, Card, InputNumber, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { apiUrl } from '../payment-campaigns/use-refresh';

type Draft = Record<string, { keepNumerator: number; keepDenominator: number }>;

/** The share each organization type keeps of what it handles (2/3 by default); one table for the system (issue 30 item 5). */
export function SharesCard({ editable }: { editable: boolean }) {
  const t = useTranslate();
  const invalidate = useInvalidate();
  const url = apiUrl('/dues/shares');
  const { query, result } = useCustom<{ shares: DuesShare[] }>({ url, method: 'get', errorNotification: false });
  const shares = query.isSuccess ? (result.data as { shares: DuesShare[] }).shares : [];
  const [draft, setDraft] = useState<Draft>({});
  const { mutate, mutation } = useCustomMutation();
  const value = (s: DuesShare) => draft[s.organizationType] ?? { keepNumerator: s.keepNumerator, keepDenominator: s.keepDenominator };
  const set = (s: DuesShare, k: 'keepNumerator' | 'keepDenominator', v: number | null) =>
    setDraft({ ...draft, [s.organizationType]: { ...value(s), [k]: v ?? 0 } });
  return (
    <Card title={t('dues:shares.title')} data-testid="dues-shares">
      <Typography.Paragraph type="secondary">{t('dues:shares.help')}</Typography.Paragraph>
      <Table
        rowKey="organizationType"
        size="small"
        pagination={false}
        loading={query.isLoading}
        dataSource={shares}
        columns={[
          { title: t('dues:shares.type'), dataIndex: 'organizationType', render: (v: string) => t(`organizations:types.${v}`) },
          {
            title: t('dues:shares.keep'),
            key: 'keep',
            render: (_: unknown, s: DuesShare) =>
              editable ? (
                <Space>
                  <InputNumber value={value(s).keepNumerator} onChange={(v) => set(s, 'keepNumerator', v)} />/
                  <InputNumber value={value(s).keepDenominator} onChange={(v) => set(s, 'keepDenominator', v)} />
                </Space>
              ) : (
                `${s.keepNumerator}/${s.keepDenominator}`
              ),
          },
          { title: '', key: 'default', render: (_: unknown, s: DuesShare) => s.isDefault && <Tag>{t('dues:shares.default')}</Tag> },
        ]}
      />
      {editable && (
        <Button
          type="primary"
          className="bulk-bar"
          disabled={Object.keys(draft).length === 0}
          loading={mutation.isPending}
          onClick={() =>
            mutate(
              {
                url,
                method: 'put',
                values: { shares: Object.entries(draft).map(([organizationType, v]) => ({ organizationType, ...v })) },
                successNotification: () => ({ type: 'success', message: t('dues:shares.saved') }),
              },
              { onSuccess: () => (setDraft({}), invalidate({ invalidates: ['all'] })) },
            )
          }
        >
          {t('buttons.save')}
        </Button>
      )}
    </Card>
  );
}
