import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { OrganizationDetail, OrganizationRef, OrganizationSummary } from '@doanhoi/shared';
import { useModalForm } from '../../components/form-errors';
import { useDelete, useTranslate } from '@refinedev/core';
import { App, Button, Space, Tooltip, type ButtonProps } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { WithReason } from '../../components/blocked';
import { useAllowed } from '../../components/permission-guard/use-allowed';
import { useRefreshOrganizations } from './data';
import { OrganizationFormModal } from './form';

/** A button that is shown disabled with the reason when the right is missing (000 §2). */
function Gated({ allowed, reason, children }: { allowed: boolean; reason: string; children: React.ReactElement }) {
  return allowed ? children : <Tooltip title={reason}>{children}</Tooltip>;
}

/** "Create organization": under the organization shown, or anywhere (the tree) with the parent picked by type. */
export function OrganizationCreateButton({ parent, ancestorIds = [] }: { parent?: OrganizationRef | null; ancestorIds?: number[] }) {
  const t = useTranslate();
  const refresh = useRefreshOrganizations();
  // organizations.create is a system permission: only a global grant holds it (checked in the parent's context anyway).
  const allowed = useAllowed(
    'organizations.create',
    parent ? { organizationId: parent.id, ancestorIds } : { organizationId: 0, ancestorIds: [] },
  );
  const create = useModalForm<OrganizationSummary>({
    resource: 'organizations',
    action: 'create',
    redirect: false,
    onMutationSuccess: () => refresh(),
    successNotification: () => ({ type: 'success', message: t('organizations:create.success') }),
  });
  const show = () => {
    create.show();
    if (parent) create.formProps.form?.setFieldValue('parentId', parent.id);
  };
  return (
    <>
      <Gated allowed={allowed} reason={t('organizations:noPermission.create')}>
        <Button type="primary" icon={<PlusOutlined />} onClick={show} disabled={!allowed} data-testid="organization-add">
          {t('organizations:create.button')}
        </Button>
      </Gated>
      {allowed && (
        <OrganizationFormModal
          action="create"
          parent={parent}
          modalProps={create.modalProps}
          formProps={{
            ...create.formProps,
            onFinish: (v) =>
              create.formProps.onFinish?.({ ...(v as object), parentId: parent?.id ?? (v as { parentId?: number }).parentId }),
          }}
        />
      )}
    </>
  );
}

/** The API's refusal in the screen's language where 000 §8 names the case (children, members, campaigns). */
export function deleteRefusal(message: string, t: (key: string, o?: Record<string, unknown>) => string): string {
  if (/tổ chức con/i.test(message)) return t('organizations:delete.hasChildren');
  if (/thành viên/i.test(message)) return t('organizations:delete.hasMembers');
  const campaigns = /(\d+) đợt thu phí/i.exec(message);
  if (campaigns) return t('organizations:delete.hasCampaigns', { count: Number(campaigns[1]) });
  return message;
}

/** Edit and delete of the organization a detail page shows, each checked in that organization. */
export function OrganizationManageBar({ org, ancestorIds }: { org: OrganizationDetail; ancestorIds: number[] }) {
  const t = useTranslate();
  const { modal, notification } = App.useApp();
  const navigate = useNavigate();
  const refresh = useRefreshOrganizations();
  const { mutateAsync: remove } = useDelete();
  const canEdit = useAllowed('organizations.update', { organizationId: org.id, ancestorIds });
  const canDelete = useAllowed('organizations.delete', { organizationId: org.id, ancestorIds });
  const edit = useModalForm<OrganizationSummary>({
    resource: 'organizations',
    action: 'edit',
    id: org.id,
    redirect: false,
    successNotification: () => ({ type: 'success', message: t('organizations:edit.success') }),
    onMutationSuccess: (res) => {
      const saved = res.data as OrganizationSummary;
      refresh();
      // A new type or code is a new address (000 §2 routes).
      if (saved.type !== org.type || saved.code !== org.code)
        navigate(`/organizations/${saved.type}/${encodeURIComponent(saved.code)}`, { replace: true });
    },
  });

  // Refine copies the loaded record into the form in a passive effect that can run seconds after the
  // data arrives on a busy machine, wiping what was typed meanwhile (as the campaign form did): the
  // form stays disabled until that copy has run (this effect is declared after Refine's).
  const loaded = edit.query?.data?.data;
  const [filled, setFilled] = useState<unknown>(undefined);
  useEffect(() => setFilled(loaded), [loaded]);
  const editLoading = edit.open && (edit.query?.isFetching === true || loaded === undefined || filled !== loaded);

  // The deleted organization's page can stay on screen while the router renders the parent (a transition):
  // its delete stays off, so a second click cannot send the same DELETE again (404).
  const [deletedId, setDeletedId] = useState<number>();
  const deleted = deletedId === org.id;

  function confirmDelete() {
    modal.confirm({
      title: t('organizations:delete.title'),
      content: t('organizations:delete.message', { name: org.name }),
      okText: t('buttons.delete'),
      okButtonProps: { danger: true, 'data-testid': 'confirm-delete' } as ButtonProps,
      cancelText: t('buttons.cancel'),
      onOk: async () => {
        try {
          await remove({ resource: 'organizations', id: org.id, successNotification: false, errorNotification: false });
        } catch (e) {
          notification.error({ message: t('organizations:delete.failed'), description: deleteRefusal((e as Error).message, t) });
          return;
        }
        setDeletedId(org.id);
        // The deleted organization's own reads are only marked stale, not refetched (they would answer 404).
        refresh(true);
        notification.success({ message: t('organizations:delete.success', { name: org.name }) });
        navigate(org.parent ? `/organizations/${org.parent.type}/${encodeURIComponent(org.parent.code)}` : '/organizations');
      },
    });
  }

  // What the server would refuse is not offered (issue 25 item 6): the button is disabled with the reason.
  const blockedBy = org.hasChildren
    ? t('organizations:delete.hasChildren')
    : org.memberCount > 0
      ? t('organizations:delete.hasMembers')
      : org.campaignCount > 0
        ? t('organizations:delete.hasCampaigns', { count: org.campaignCount })
        : null;
  return (
    <Space wrap>
      <Gated allowed={canEdit} reason={t('organizations:noPermission.edit')}>
        <Button icon={<EditOutlined />} onClick={() => edit.show(org.id)} disabled={!canEdit || deleted} data-testid="organization-edit">
          {t('buttons.edit')}
        </Button>
      </Gated>
      {canDelete ? (
        <WithReason reason={blockedBy} visible testId="organization-delete-blocked">
          <Button
            danger
            icon={<DeleteOutlined />}
            onClick={confirmDelete}
            disabled={blockedBy !== null || deleted}
            data-testid="organization-delete"
          >
            {t('buttons.delete')}
          </Button>
        </WithReason>
      ) : (
        <Gated allowed={false} reason={t('organizations:noPermission.delete')}>
          <Button danger icon={<DeleteOutlined />} disabled data-testid="organization-delete">
            {t('buttons.delete')}
          </Button>
        </Gated>
      )}
      {canEdit && (
        <OrganizationFormModal action="edit" modalProps={edit.modalProps} formProps={{ ...edit.formProps, disabled: editLoading }} />
      )}
    </Space>
  );
}
