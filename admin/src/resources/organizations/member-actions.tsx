import { DownloadOutlined, UploadOutlined, UserAddOutlined } from '@ant-design/icons';
import { memberImportColumns, USER_EXPORT_FIELDS, type OrganizationDetail, type OrganizationType } from '@doanhoi/shared';
import { useCustomMutation, useInvalidate, useTranslate } from '@refinedev/core';
import { Alert, App, AutoComplete, Button, Form, Input, Modal, Space, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { ExportDialog } from '../../components/export-dialog';
import { ImportWizard } from '../../components/import-wizard';
import { ApiError, API_URL } from '../../providers/http';
import { RequestTransferModal } from '../transfers/request-dialog';
import { useUserSearch } from '../users/use-user-search';
import { useRefreshOrganizations } from './data';
import { useAllowed } from '../../components/permission-guard/use-allowed';

/** 000 §2/§9: the member import level of an organization type; roots take no member import. */
export function importLevel(type: OrganizationType): 2 | 3 | null {
  if (type === 'doan_co_so' || type === 'lien_chi_hoi') return 2;
  if (type === 'doan_truong' || type === 'hoi_sinh_vien_truong') return null;
  return 3;
}

/**
 * 000 §6: a level-3 unit or a club takes members by file import only (and export), so manual add
 * is not offered there. The API still accepts the call: the user form places people in these units too (000 §4).
 */
export function manualAddOffered(org: { type: OrganizationType; level?: number }): boolean {
  // The level-3 import types (chi đoàn, chi hội, CLB khoa, and CLB trường, 000 §9) decide where the tree knows no level.
  return (org.level ?? 0) < 3 && importLevel(org.type) !== 3;
}

/** The add-member-by-code dialog (000 §2, §5): a code, found by typing it or picking a user from the search. */
export function AddMemberModal({
  org,
  open,
  onClose,
  canSearch,
  onAdded,
}: {
  org: Pick<OrganizationDetail, 'id' | 'name'>;
  open: boolean;
  onClose: () => void;
  canSearch: boolean;
  onAdded: () => void;
}) {
  const t = useTranslate();
  const { notification } = App.useApp();
  const [form] = Form.useForm<{ code: string }>();
  const code = Form.useWatch('code', form) ?? '';
  const users = useUserSearch(code, open && canSearch);
  const { mutateAsync, mutation } = useCustomMutation();
  const saving = mutation.isPending;
  // Issue 30 item 1: a member of a unit outside the caller's reach is not added but may be asked for (a transfer request).
  const [offer, setOffer] = useState<string | null>(null);
  const [transferOpen, setTransferOpen] = useState(false);

  async function save() {
    const { code: value } = await form.validateFields();
    try {
      await mutateAsync({
        url: `${API_URL}/organizations/${org.id}/member/${encodeURIComponent(value.trim())}`,
        method: 'post',
        values: { userCode: value.trim() },
        successNotification: false,
        errorNotification: false,
      });
      notification.success({ message: t('organizations:members.added', { code: value.trim() }) });
      onAdded();
      form.resetFields();
      onClose();
    } catch (e) {
      // 000 §8: 400 the user is already a member, 404 no such user; otherwise the server's message.
      const status = e instanceof ApiError ? e.statusCode : 0;
      const message =
        status === 400
          ? t('organizations:members.alreadyMember')
          : status === 404
            ? t('organizations:members.noUser')
            : (e as Error).message;
      form.setFields([{ name: 'code', errors: [message] }]);
      setOffer(status === 403 ? value.trim() : null);
    }
  }

  return (
    <Modal
      open={open}
      title={t('organizations:members.addTitle', { name: org.name })}
      onOk={() => void save()}
      onCancel={() => {
        form.resetFields();
        setOffer(null);
        onClose();
      }}
      okText={t('organizations:members.add')}
      cancelText={t('buttons.cancel')}
      confirmLoading={saving}
      destroyOnHidden
    >
      {offer && (
        <Alert
          type="warning"
          showIcon
          message={t('organizations:transfers.offerTitle')}
          description={t('organizations:transfers.offerHint')}
          action={
            <Button size="small" type="primary" onClick={() => setTransferOpen(true)} data-testid="member-add-offer-transfer">
              {t('organizations:transfers.offer')}
            </Button>
          }
          className="section-title"
        />
      )}
      <Form form={form} layout="vertical" data-testid="member-add-form" onFinish={() => void save()}>
        <Form.Item
          label={t('organizations:members.code')}
          name="code"
          rules={[{ required: true, whitespace: true, message: t('organizations:members.codeRequired') }]}
          extra={canSearch ? t('organizations:members.searchHint') : undefined}
        >
          <AutoComplete
            autoFocus
            options={users.map((u) => ({ value: u.code, label: `${u.code} — ${u.familyName} ${u.givenName} (${u.email})` }))}
            data-testid="member-add-code"
          >
            <Input onPressEnter={() => void save()} />
          </AutoComplete>
        </Form.Item>
      </Form>
      <RequestTransferModal
        open={transferOpen}
        code={offer ?? undefined}
        to={{ id: org.id, name: org.name }}
        onClose={() => setTransferOpen(false)}
        onDone={() => {
          setOffer(null);
          form.resetFields();
          onClose();
        }}
      />
    </Modal>
  );
}

/**
 * The member list's toolbar (000 §2): add by code, import from a file (level 2 or 3 by type),
 * export; each checked in this organization and shown disabled with the reason when not allowed.
 */
export function MemberToolbar({
  org,
  ancestorIds,
  canSearchUsers,
}: {
  org: OrganizationDetail;
  ancestorIds: number[];
  canSearchUsers: boolean;
}) {
  const t = useTranslate();
  const invalidate = useInvalidate();
  const refreshOrganizations = useRefreshOrganizations();
  const [dialog, setDialog] = useState<'add' | 'import' | 'export' | null>(null);
  const where = { organizationId: org.id, ancestorIds };
  const canAdd = useAllowed(['organizations.add_member', 'organizations.manage_members'], where, 'any');
  const canExport = useAllowed('organizations.export', where);
  const level = importLevel(org.type);
  const manual = manualAddOffered(org);
  const paths = useMemo(
    () =>
      level && {
        upload: `/organizations/members/import/upload?level=${level}&organizationId=${org.id}`,
        session: '/organizations/import',
        template: `/organizations/members/import/template/${level}`,
      },
    [level, org.id],
  );
  const refresh = () => {
    void invalidate({ resource: `organizations/${org.id}/members`, invalidates: ['list'] });
    refreshOrganizations();
  };
  const gated = (allowed: boolean, node: React.ReactElement) =>
    allowed ? node : <Tooltip title={t('organizations:noPermission.addMember')}>{node}</Tooltip>;

  return (
    <Space wrap>
      {manual &&
        gated(
          canAdd,
          <Button type="primary" icon={<UserAddOutlined />} disabled={!canAdd} onClick={() => setDialog('add')} data-testid="member-add">
            {t('organizations:members.add')}
          </Button>,
        )}
      {level &&
        gated(
          canAdd,
          <Button
            type={manual ? 'default' : 'primary'}
            icon={<UploadOutlined />}
            disabled={!canAdd}
            onClick={() => setDialog('import')}
            data-testid="member-import"
          >
            {t('organizations:members.import')}
          </Button>,
        )}
      {canExport && (
        <Button icon={<DownloadOutlined />} onClick={() => setDialog('export')} data-testid="member-export">
          {t('organizations:members.export')}
        </Button>
      )}
      {!manual && level && (
        <Typography.Text type="secondary" data-testid="member-import-only">
          {t('organizations:members.importOnly')}
        </Typography.Text>
      )}
      {canAdd && manual && (
        <AddMemberModal org={org} open={dialog === 'add'} onClose={() => setDialog(null)} canSearch={canSearchUsers} onAdded={refresh} />
      )}
      {canAdd && level && paths && (
        <ImportWizard
          open={dialog === 'import'}
          onClose={() => {
            setDialog(null);
            refresh();
          }}
          resource={`organizations/${org.id}/members`}
          paths={paths}
          columns={memberImportColumns(level)}
          templateName={`organization_members_level${level}_template.xlsx`}
          title={t('organizations:members.importTitle', { name: org.name, level })}
        />
      )}
      {dialog === 'export' && (
        <ExportDialog
          open
          onClose={() => setDialog(null)}
          title={t('organizations:members.exportTitle', { name: org.name })}
          fields={USER_EXPORT_FIELDS}
          kind="users"
          path={`/export/organizations/${org.id}/members`}
        />
      )}
    </Space>
  );
}
