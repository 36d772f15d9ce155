import { EditOutlined, DownOutlined } from '@ant-design/icons';
import type { UserBulkFilterInput, UserBulkSet, UserBulkUpdateResponse } from '@doanhoi/shared/schemas/users-bulk';
import { useCustomMutation, useTranslate } from '@refinedev/core';
import { Alert, App, Button, Dropdown, Form, List, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { API_URL } from '../../providers/http';
import { BulkEditFields, toSet, type BulkEditValues } from './bulk-edit-fields';
import './bulk-edit.css';

/** Whom a bulk edit applies to: the ticked rows, or every user the list's filters and search match. */
export type BulkTarget = { ids: number[]; count: number } | { filter: UserBulkFilterInput; count: number | string };

interface MenuProps {
  selected: number[];
  filter: UserBulkFilterInput;
  /** The list's total for the current filters: shown as is, or as "more than" when capped. */
  total: number | string;
  onDone: () => void;
}

/** "Sửa hàng loạt" over the users table: on the selection, or on all the filtered results (issue 30 item 6). */
export function BulkEditMenu({ selected, filter, total, onDone }: MenuProps) {
  const t = useTranslate();
  const [target, setTarget] = useState<BulkTarget | null>(null);
  const items = [
    {
      key: 'selection',
      disabled: selected.length === 0,
      label: t('bulkEdit:ui.onSelection', { count: selected.length }),
      onClick: () => setTarget({ ids: selected, count: selected.length }),
    },
    {
      key: 'filter',
      disabled: total === 0,
      label: t('bulkEdit:ui.onFilter', { count: total }),
      onClick: () => setTarget({ filter, count: total }),
    },
  ];
  return (
    <>
      <Dropdown menu={{ items }} trigger={['click']}>
        <Button icon={<EditOutlined />} data-testid="user-bulk-edit">
          {t('bulkEdit:ui.button')} <DownOutlined />
        </Button>
      </Dropdown>
      {target && (
        <BulkEditDialog
          target={target}
          onClose={() => setTarget(null)}
          onDone={() => {
            setTarget(null);
            onDone();
          }}
        />
      )}
    </>
  );
}

interface DialogProps {
  target: BulkTarget;
  onClose: () => void;
  onDone: () => void;
}

/** Choose what to set, see the preview (count, sample, refusals), then confirm. */
function BulkEditDialog({ target, onClose, onDone }: DialogProps) {
  const t = useTranslate();
  const { notification } = App.useApp();
  const [form] = Form.useForm<BulkEditValues>();
  const [set, setSet] = useState<UserBulkSet | null>(null);
  const [preview, setPreview] = useState<UserBulkUpdateResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { mutateAsync, mutation } = useCustomMutation<UserBulkUpdateResponse>();
  const busy = mutation.isPending;
  const body = (s: UserBulkSet, dryRun: boolean) =>
    'ids' in target ? { ids: target.ids, set: s, dryRun } : { filter: target.filter, set: s, dryRun };

  const send = async (s: UserBulkSet, dryRun: boolean) => {
    setError(null);
    try {
      const { data: res } = await mutateAsync({
        url: `${API_URL}/users/bulk-update`,
        method: 'post',
        values: body(s, dryRun),
        successNotification: false,
        errorNotification: false,
      });
      if (dryRun) {
        setSet(s);
        setPreview(res);
      } else {
        notification.success({ message: res.message });
        onDone();
      }
    } catch (e) {
      setError((e as Error).message);
    }
  };

  const onPreview = async () => {
    const values = await form.validateFields();
    await send(toSet(values), true);
  };

  const blocked = !preview || preview.refusedCount > 0 || preview.matched > preview.cap || preview.changed === 0;
  const footer = preview
    ? [
        <Button key="back" onClick={() => setPreview(null)} data-testid="bulk-edit-back">
          {t('bulkEdit:ui.back')}
        </Button>,
        <Button
          key="ok"
          type="primary"
          disabled={blocked}
          loading={busy}
          onClick={() => set && void send(set, false)}
          data-testid="bulk-edit-confirm"
        >
          {t('bulkEdit:ui.confirm', { count: preview.changed })}
        </Button>,
      ]
    : [
        <Button key="cancel" onClick={onClose}>
          {t('buttons.cancel')}
        </Button>,
        <Button key="preview" type="primary" loading={busy} onClick={() => void onPreview()} data-testid="bulk-edit-preview">
          {t('bulkEdit:ui.preview')}
        </Button>,
      ];

  return (
    <Modal
      open
      title={t('bulkEdit:ui.title')}
      onCancel={onClose}
      footer={footer}
      width={680}
      destroyOnHidden
      data-testid="bulk-edit-dialog"
    >
      <Typography.Paragraph>
        {t('ids' in target ? 'bulkEdit:ui.scopeSelection' : 'bulkEdit:ui.scopeFilter', { count: target.count })}
      </Typography.Paragraph>
      {error && <Alert type="error" showIcon message={error} className="bulk-edit-alert" data-testid="bulk-edit-error" />}
      <div hidden={preview !== null}>
        <BulkEditFields form={form} />
      </div>
      {preview && <PreviewView preview={preview} />}
    </Modal>
  );
}

function PreviewView({ preview }: { preview: UserBulkUpdateResponse }) {
  const t = useTranslate();
  const name = (p: { familyName: string; givenName: string }) => `${p.familyName} ${p.givenName}`;
  if (preview.matched > preview.cap)
    return (
      <Alert
        type="warning"
        showIcon
        message={t('bulkEdit:ui.tooMany', { matched: preview.matched, cap: preview.cap })}
        data-testid="bulk-edit-too-many"
      />
    );
  return (
    <Space direction="vertical" className="bulk-edit-preview" data-testid="bulk-edit-summary">
      <Typography.Text strong>{t('bulkEdit:ui.summary', { matched: preview.matched, changed: preview.changed })}</Typography.Text>
      {preview.refusedCount > 0 && (
        <Alert
          type="error"
          showIcon
          data-testid="bulk-edit-refusals"
          message={t('bulkEdit:ui.refusedTitle', { count: preview.refusedCount })}
          description={
            <>
              <List
                size="small"
                dataSource={preview.refusals}
                renderItem={(r) => (
                  <List.Item>
                    <Typography.Text strong>{r.code}</Typography.Text> — {name(r)}: {t(`bulkEdit:ui.reasonsShort.${r.reason}`)}
                  </List.Item>
                )}
              />
              {preview.refusedCount > preview.refusals.length && (
                <Typography.Text>{t('bulkEdit:ui.refusedMore', { count: preview.refusedCount - preview.refusals.length })}</Typography.Text>
              )}
              <Typography.Paragraph>{t('bulkEdit:ui.refusedHint')}</Typography.Paragraph>
            </>
          }
        />
      )}
      {preview.refusedCount === 0 && preview.changed === 0 && <Alert type="info" showIcon message={t('bulkEdit:ui.nothingChanges')} />}
      {preview.refusedCount === 0 && preview.changed > 0 && (
        <>
          <Typography.Text type="secondary">{t('bulkEdit:ui.sample')}</Typography.Text>
          <List
            size="small"
            bordered
            dataSource={preview.sample}
            data-testid="bulk-edit-sample"
            renderItem={(p) => (
              <List.Item>
                {p.code} — {name(p)}
              </List.Item>
            )}
          />
        </>
      )}
    </Space>
  );
}
