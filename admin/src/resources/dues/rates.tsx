import { formatVnd, USER_TYPES, type DuesRatesResponse, type UserType } from '@doanhoi/shared';
import { useCustom, useCustomMutation, useInvalidate, useTranslate } from '@refinedev/core';
import { Button, Card, InputNumber, Space, Table, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { apiUrl } from '../payment-campaigns/use-refresh';

/** Đoàn phí per month and member type in one unit: its own, inherited from above, or the rule's (issue 30 item 4). */
export function RatesCard({ organizationId, editable }: { organizationId: number; editable: boolean }) {
  const t = useTranslate();
  const invalidate = useInvalidate();
  const url = apiUrl('/dues/rates');
  const { query, result } = useCustom<DuesRatesResponse>({
    url,
    method: 'get',
    config: { query: { organizationId } },
    errorNotification: false,
  });
  const data = query.isSuccess ? (result.data as DuesRatesResponse) : undefined;
  const [draft, setDraft] = useState<Partial<Record<UserType, number | null>>>({});
  const { mutate, mutation } = useCustomMutation();
  useEffect(() => setDraft({}), [organizationId, data]);

  const save = (rates: { memberType: UserType; monthlyAmount: number | null }[]) =>
    mutate(
      {
        url,
        method: 'put',
        values: { organizationId, rates },
        successNotification: () => ({ type: 'success', message: t('dues:rates.saved') }),
      },
      { onSuccess: () => invalidate({ invalidates: ['all'] }) },
    );

  return (
    <Card title={t('dues:rates.title')} data-testid="dues-rates">
      <Typography.Paragraph type="secondary">{t('dues:rates.help')}</Typography.Paragraph>
      <Table
        rowKey="memberType"
        size="small"
        pagination={false}
        loading={query.isLoading}
        dataSource={data?.rates ?? []}
        columns={[
          { title: t('dues:rates.memberType'), dataIndex: 'memberType', render: (v: UserType) => t(`users:userType.${v}`) },
          {
            title: t('dues:rates.monthly'),
            key: 'amount',
            render: (_: unknown, r: DuesRatesResponse['rates'][number]) =>
              editable ? (
                <InputNumber
                  step={500}
                  value={draft[r.memberType] ?? r.monthlyAmount}
                  onChange={(v) => setDraft({ ...draft, [r.memberType]: v })}
                  addonAfter="₫"
                  data-testid={`dues-rate-${r.memberType}`}
                />
              ) : (
                formatVnd(r.monthlyAmount)
              ),
          },
          {
            title: t('dues:rates.source'),
            key: 'source',
            render: (_: unknown, r: DuesRatesResponse['rates'][number]) => (
              <Space>
                <Tag color={r.source === 'own' ? 'blue' : r.source === 'inherited' ? 'purple' : 'default'}>
                  {t(`dues:rates.sources.${r.source}`)}
                </Tag>
                {r.sourceOrganizationName && r.source === 'inherited' && (
                  <Typography.Text type="secondary">{r.sourceOrganizationName}</Typography.Text>
                )}
                {editable && r.source === 'own' && (
                  <Button size="small" onClick={() => save([{ memberType: r.memberType, monthlyAmount: null }])}>
                    {t('dues:rates.inherit')}
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      {editable && (
        <Button
          type="primary"
          className="bulk-bar"
          disabled={Object.keys(draft).length === 0}
          loading={mutation.isPending}
          data-testid="dues-rates-save"
          onClick={() =>
            save(USER_TYPES.filter((k) => draft[k] != null).map((memberType) => ({ memberType, monthlyAmount: draft[memberType]! })))
          }
        >
          {t('buttons.save')}
        </Button>
      )}
    </Card>
  );
}
