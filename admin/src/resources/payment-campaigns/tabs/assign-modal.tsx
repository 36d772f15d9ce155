import type { FeeLevel, User, UserListResponse } from '@doanhoi/shared';
import { fullName } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, Col, Form, Input, Modal, Row, Select } from 'antd';
import { useState } from 'react';
import { apiRequest } from '../../../providers/http';

interface Props {
  open: boolean;
  campaignId: number;
  feeLevels: FeeLevel[];
  onClose: () => void;
  onAssigned: (count: number) => void;
}

/** Assign members (001 §2): members picked on the left, the fee level and notes on the right; one bulk call. */
export function AssignModal({ open, campaignId, feeLevels, onClose, onAssigned }: Props) {
  const t = useTranslate();
  const [search, setSearch] = useState('');
  const [userIds, setUserIds] = useState<number[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<{ feeLevelId?: number; notes?: string }>();
  const users = useQuery({
    queryKey: ['users', 'pick', search],
    queryFn: () => apiRequest<UserListResponse>(`/users?limit=20${search ? `&search=${encodeURIComponent(search)}` : ''}`),
    enabled: open,
  });
  const defaultLevel = feeLevels.find((l) => l.isDefault)?.id ?? feeLevels[0]?.id;

  async function save() {
    const v = await form.validateFields();
    if (userIds.length === 0) return setError(t('campaigns:assign.pickMembers'));
    setSaving(true);
    setError(null);
    try {
      await apiRequest('/payment/assignments/bulk', {
        method: 'POST',
        body: { assignments: userIds.map((userId) => ({ campaignId, userId, feeLevelId: v.feeLevelId, notes: v.notes })) },
      });
      onAssigned(userIds.length);
      setUserIds([]);
      form.resetFields();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setSaving(false);
    }
  }

  const label = (u: User) => `${fullName(u)} (${u.code})`;
  return (
    <Modal open={open} onCancel={onClose} onOk={() => void save()} confirmLoading={saving} okText={t('campaigns:assign.submit')} cancelText={t('buttons.cancel')} title={t('campaigns:assign.title')} width={860} destroyOnHidden>
      {error && <Alert type="error" showIcon message={error} className="bulk-bar" />}
      <Row gutter={24} data-testid="assign-modal">
        <Col span={14}>
          <Form layout="vertical">
            <Form.Item label={t('campaigns:assign.members', { count: userIds.length })}>
              <Select
                mode="multiple"
                value={userIds}
                onChange={setUserIds}
                showSearch
                filterOption={false}
                onSearch={setSearch}
                loading={users.isFetching}
                options={(users.data?.users ?? []).map((u) => ({ value: u.id, label: label(u) }))}
                placeholder={t('campaigns:assign.searchMembers')}
                aria-label={t('campaigns:assign.searchMembers')}
                data-testid="assign-members"
              />
            </Form.Item>
          </Form>
        </Col>
        <Col span={10}>
          <Form form={form} layout="vertical" initialValues={{ feeLevelId: defaultLevel }}>
            <Form.Item label={t('campaigns:assign.feeLevel')} name="feeLevelId" rules={[{ required: true, message: t('validation:selectFeeLevel') }]}>
              <Select options={feeLevels.map((l) => ({ value: l.id, label: l.levelName }))} aria-label={t('campaigns:assign.feeLevel')} />
            </Form.Item>
            <Form.Item label={t('campaigns:assign.notes')} name="notes">
              <Input.TextArea rows={3} maxLength={1000} />
            </Form.Item>
          </Form>
        </Col>
      </Row>
    </Modal>
  );
}
