import { formatDate, formatVnd, generateDuesSchema, type DuesGenerated, type DuesPlan, type GenerateDues } from '@doanhoi/shared';
import { useCustomMutation, useGo, useTranslate } from '@refinedev/core';
import { Alert, Button, Card, DatePicker, Descriptions, Form, Input, Radio, Space, Steps, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { zodRule } from '../../components/form-rules';
import { apiUrl } from '../payment-campaigns/use-refresh';

const rule = zodRule(generateDuesSchema);
type Period = 'year' | 'first' | 'second' | 'custom';

interface Values {
  name: string;
  description?: string;
  period: Period;
  year: dayjs.Dayjs;
  range?: [dayjs.Dayjs, dayjs.Dayjs];
  dueDate?: dayjs.Dayjs;
}

function months(v: Values): { fromMonth: string; toMonth: string } {
  const y = (v.year ?? dayjs()).year();
  if (v.period === 'first') return { fromMonth: `${y}-01`, toMonth: `${y}-06` };
  if (v.period === 'second') return { fromMonth: `${y}-07`, toMonth: `${y}-12` };
  if (v.period === 'custom' && v.range) return { fromMonth: v.range[0].format('YYYY-MM'), toMonth: v.range[1].format('YYYY-MM') };
  return { fromMonth: `${y}-01`, toMonth: `${y}-12` };
}

/** "Generate the year's (or semester's) campaign" (issue 30 item 4): the period, a preview of what it creates, then one creation. */
export function GenerateWizard({ organizationId }: { organizationId: number }) {
  const t = useTranslate();
  const go = useGo();
  const [form] = Form.useForm<Values>();
  const period = Form.useWatch('period', form);
  const [input, setInput] = useState<GenerateDues | null>(null);
  const [plan, setPlan] = useState<DuesPlan | null>(null);
  const { mutate: preview, mutation: previewing } = useCustomMutation<DuesPlan>();
  const { mutate: create, mutation: creating } = useCustomMutation<DuesGenerated>();

  const ask = (v: Values) => {
    const body = {
      organizationId,
      name: v.name,
      description: v.description || null,
      ...months(v),
      dueDate: v.dueDate ? v.dueDate.format('YYYY-MM-DD') : undefined,
    } as GenerateDues;
    preview(
      { url: apiUrl('/dues/campaigns/preview'), method: 'post', values: body, successNotification: false },
      {
        onSuccess: (res) => {
          setInput(body);
          setPlan(res.data as DuesPlan);
        },
      },
    );
  };

  const confirm = () =>
    input &&
    create(
      {
        url: apiUrl('/dues/campaigns'),
        method: 'post',
        values: input,
        successNotification: () => ({ type: 'success', message: t('dues:generate.created') }),
      },
      { onSuccess: (res) => go({ to: `/admin/payment-campaigns/${(res.data as DuesGenerated).campaign.id}?tab=fee-levels` }) },
    );

  return (
    <Card title={t('dues:generate.title')} data-testid="dues-generate">
      <Steps
        size="small"
        current={plan ? 1 : 0}
        items={[{ title: t('dues:generate.stepPeriod') }, { title: t('dues:generate.stepPreview') }]}
        className="bulk-bar"
      />
      {!plan ? (
        <Form
          form={form}
          layout="vertical"
          onFinish={ask}
          initialValues={{ period: 'year', year: dayjs(), name: t('dues:generate.defaultName', { year: dayjs().year() }) }}
          data-testid="dues-generate-form"
        >
          <Form.Item label={t('dues:generate.name')} name="name" rules={[rule]} required>
            <Input maxLength={200} data-testid="dues-generate-name" />
          </Form.Item>
          <Form.Item label={t('dues:generate.period')} name="period">
            <Radio.Group
              optionType="button"
              options={(['year', 'first', 'second', 'custom'] as const).map((p) => ({ value: p, label: t(`dues:generate.periods.${p}`) }))}
              data-testid="dues-generate-period"
            />
          </Form.Item>
          {period === 'custom' ? (
            <Form.Item
              label={t('dues:generate.months')}
              name="range"
              rules={[{ required: true, message: t('dues:validation.fromMonthRequired') }]}
            >
              <DatePicker.RangePicker picker="month" format="MM/YYYY" />
            </Form.Item>
          ) : (
            <Form.Item label={t('dues:generate.year')} name="year" rules={[{ required: true }]}>
              <DatePicker picker="year" data-testid="dues-generate-year" />
            </Form.Item>
          )}
          <Form.Item label={t('dues:generate.dueDate')} name="dueDate" extra={t('dues:generate.dueDateHint')}>
            <DatePicker format="DD/MM/YYYY" data-testid="dues-generate-due" />
          </Form.Item>
          <Form.Item label={t('dues:generate.description')} name="description">
            <Input.TextArea rows={2} maxLength={2000} />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={previewing.isPending} data-testid="dues-generate-preview">
            {t('dues:generate.preview')}
          </Button>
        </Form>
      ) : (
        <Space direction="vertical" className="full-width" data-testid="dues-plan">
          <Descriptions size="small" column={{ xs: 1, sm: 3 }}>
            <Descriptions.Item label={t('dues:generate.periodLabel')}>
              {t('dues:generate.periodValue', { from: plan.fromMonth, to: plan.toMonth, months: plan.months })}
            </Descriptions.Item>
            <Descriptions.Item label={t('dues:generate.totalMembers')}>
              <span data-testid="dues-plan-members">{plan.totalMembers}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('dues:generate.totalAmount')}>
              <strong data-testid="dues-plan-total">{formatVnd(plan.totalAmount)}</strong>
            </Descriptions.Item>
          </Descriptions>
          {plan.skippedAfterPeriod > 0 && (
            <Alert type="info" showIcon message={t('dues:generate.skipped', { count: plan.skippedAfterPeriod })} />
          )}
          <Table
            rowKey={(l) => `${l.memberType}:${l.months}`}
            size="small"
            pagination={false}
            dataSource={plan.levels}
            data-testid="dues-plan-levels"
            columns={[
              { title: t('dues:generate.level'), dataIndex: 'levelName' },
              {
                title: t('dues:generate.formula'),
                key: 'f',
                render: (_: unknown, l: DuesPlan['levels'][number]) => `${formatVnd(l.monthlyAmount)} × ${l.months}`,
              },
              { title: t('dues:generate.amount'), dataIndex: 'amount', align: 'right', render: (v: number) => formatVnd(v) },
              { title: t('dues:generate.count'), dataIndex: 'count', align: 'right' },
              { title: t('dues:generate.total'), dataIndex: 'total', align: 'right', render: (v: number) => formatVnd(v) },
            ]}
          />
          <Typography.Title level={5}>{t('dues:generate.examples')}</Typography.Title>
          <Table
            rowKey="userId"
            size="small"
            pagination={false}
            dataSource={plan.examples}
            data-testid="dues-plan-examples"
            columns={[
              {
                title: t('dues:generate.member'),
                key: 'm',
                render: (_: unknown, e: DuesPlan['examples'][number]) => `${e.fullName} (${e.code})`,
              },
              { title: t('dues:generate.joinedAt'), dataIndex: 'joinedAt', render: (v: string) => formatDate(v) },
              { title: t('dues:generate.monthsOwed'), dataIndex: 'months', align: 'right' },
              { title: t('dues:generate.amount'), dataIndex: 'amount', align: 'right', render: (v: number) => formatVnd(v) },
            ]}
          />
          <Space>
            <Button onClick={() => setPlan(null)}>{t('dues:generate.back')}</Button>
            <Button
              type="primary"
              disabled={plan.totalMembers === 0}
              loading={creating.isPending}
              onClick={confirm}
              data-testid="dues-generate-create"
            >
              {t('dues:generate.create', { count: plan.totalMembers })}
            </Button>
          </Space>
        </Space>
      )}
    </Card>
  );
}
