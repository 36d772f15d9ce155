import { formatVnd, fullName, VN_OFFSET_MS, type Campaign, type FeeLevel, type User } from '@doanhoi/shared';
import { useCustomMutation, useList, useTranslate } from '@refinedev/core';
import { Alert, Checkbox, Col, DatePicker, Empty, Form, Input, List, Modal, Pagination, Row, Select, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { apiUrl } from '../use-refresh';
import { ListSearch } from '../../../components/list-search';
import { useDialogFocus } from '../../../components/dialog-focus';

interface Props {
  open: boolean;
  campaign: Pick<Campaign, 'id' | 'organizationId' | 'endDate' | 'organization'>;
  feeLevels: FeeLevel[];
  onClose: () => void;
  onAssigned: (count: number) => void;
}

interface Values {
  feeLevelId?: number;
  dueDate?: Dayjs;
  notes?: string;
}

const PAGE_SIZE = 10;

/** The campaign's end as a Vietnam calendar day (the API reads a bare date as the end of that day). */
const vnDay = (iso: string) => dayjs(new Date(new Date(iso).getTime() + VN_OFFSET_MS).toISOString().slice(0, 10));

/**
 * Assign members (001 §2, §5): on the left the active members of the campaign's organization and
 * its units (searched and paged by the server), on the right the fee level (with its amount), the
 * due date (the campaign's end by default) and a note; one bulk call.
 */
export function AssignModal({ open, campaign, feeLevels, onClose, onAssigned }: Props) {
  const t = useTranslate();
  const [form] = Form.useForm<Values>();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [picked, setPicked] = useState<Map<number, User>>(new Map());
  const [error, setError] = useState<string | null>(null);
  const { mutate, mutation } = useCustomMutation();

  const members = useList<User>({
    resource: 'users',
    pagination: { currentPage: page, pageSize: PAGE_SIZE },
    filters: [
      { field: 'organizationId', operator: 'eq', value: campaign.organizationId },
      { field: 'isActive', operator: 'eq', value: true },
      { field: 'q', operator: 'contains', value: search || undefined },
    ],
    queryOptions: { enabled: open, placeholderData: (prev) => prev },
    errorNotification: false,
  });
  const rows = members.result.data;

  const toggle = (u: User, on: boolean) =>
    setPicked((prev) => {
      const next = new Map(prev);
      if (on) next.set(u.id, u);
      else next.delete(u.id);
      return next;
    });

  function reset() {
    setPicked(new Map());
    setSearch('');
    setPage(1);
    setError(null);
    form.resetFields();
  }

  async function save() {
    const v = await form.validateFields();
    if (picked.size === 0) return setError(t('validation:selectMembers'));
    setError(null);
    const dueDate = v.dueDate?.format('YYYY-MM-DD');
    mutate(
      {
        url: apiUrl('/payment/assignments/bulk'),
        method: 'post',
        values: {
          assignments: [...picked.keys()].map((userId) => ({
            campaignId: campaign.id,
            userId,
            feeLevelId: v.feeLevelId,
            notes: v.notes,
            dueDate,
          })),
        },
        successNotification: () => ({ type: 'success', message: t('campaigns:assign.done', { count: picked.size }) }),
        errorNotification: false,
      },
      {
        onSuccess: () => {
          onAssigned(picked.size);
          reset();
        },
        onError: (e) => setError(e.message),
      },
    );
  }

  const defaultLevel = feeLevels.find((l) => l.isDefault)?.id ?? feeLevels[0]?.id;
  const label = (u: User) => `${fullName(u)} (${u.code})`;
  const focus = useDialogFocus();
  return (
    <Modal
      open={open}
      onCancel={() => (reset(), onClose())}
      afterOpenChange={focus.afterOpenChange}
      onOk={() => void save()}
      confirmLoading={mutation.isPending}
      okText={t('campaigns:assign.submit')}
      okButtonProps={{ disabled: picked.size === 0, 'data-testid': 'assign-submit' } as never}
      cancelText={t('buttons.cancel')}
      title={t('campaigns:assign.title')}
      width={920}
      destroyOnHidden
    >
      {error && <Alert type="error" showIcon message={error} className="bulk-bar" data-testid="assign-error" />}
      <Row gutter={24} data-testid="assign-modal" ref={focus.ref}>
        <Col xs={24} md={14}>
          <Typography.Text strong>{t('campaigns:assign.members', { count: picked.size })}</Typography.Text>
          <Typography.Paragraph type="secondary">
            {t('campaigns:assign.membersOf', { name: campaign.organization?.name ?? '' })}
          </Typography.Paragraph>
          <ListSearch
            value={search}
            onSearch={(v) => (setSearch(v), setPage(1))}
            placeholder={t('campaigns:assign.searchMembers')}
            aria-label={t('campaigns:assign.searchMembers')}
            loading={members.query.isFetching}
            data-testid="assign-search"
          />
          {members.query.isError && <Alert type="error" showIcon message={members.query.error.message} className="bulk-bar" />}
          <div className="assign-member-list">
            <List<User>
              size="small"
              dataSource={rows}
              loading={members.query.isLoading}
              locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('campaigns:assign.noMembers')} /> }}
              data-testid="assign-members"
              renderItem={(u) => (
                <List.Item data-testid="assign-member">
                  <Checkbox checked={picked.has(u.id)} onChange={(e) => toggle(u, e.target.checked)}>
                    <Space direction="vertical" size={0}>
                      <span>{label(u)}</span>
                      <Typography.Text type="secondary">{u.email}</Typography.Text>
                    </Space>
                  </Checkbox>
                </List.Item>
              )}
            />
          </div>
          <Pagination
            size="small"
            current={page}
            pageSize={PAGE_SIZE}
            total={members.result.total ?? 0}
            onChange={setPage}
            hideOnSinglePage
            showSizeChanger={false}
          />
        </Col>
        <Col xs={24} md={10}>
          <Form form={form} layout="vertical" initialValues={{ feeLevelId: defaultLevel, dueDate: vnDay(campaign.endDate) }}>
            <Form.Item
              label={t('campaigns:assign.feeLevel')}
              name="feeLevelId"
              rules={[{ required: true, message: t('validation:selectFeeLevel') }]}
            >
              <Select
                options={feeLevels.map((l) => ({ value: l.id, label: `${l.levelName} — ${formatVnd(l.amount)}` }))}
                aria-label={t('campaigns:assign.feeLevel')}
                data-testid="assign-fee-level"
              />
            </Form.Item>
            <Form.Item
              label={t('campaigns:assign.dueDate')}
              name="dueDate"
              rules={[{ required: true, message: t('validation:invalidDueDate') }]}
            >
              <DatePicker format="DD/MM/YYYY" className="full-width" data-testid="assign-due-date" />
            </Form.Item>
            <Form.Item label={t('campaigns:assign.notes')} name="notes">
              <Input.TextArea rows={3} maxLength={1000} />
            </Form.Item>
          </Form>
          {picked.size > 0 && (
            <Space size={[4, 4]} wrap data-testid="assign-picked">
              {[...picked.values()].map((u) => (
                <Typography.Text key={u.id} code>
                  {u.code}
                </Typography.Text>
              ))}
            </Space>
          )}
        </Col>
      </Row>
    </Modal>
  );
}
