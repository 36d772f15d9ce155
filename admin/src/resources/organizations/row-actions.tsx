import { DeleteOutlined, EditOutlined, UploadOutlined, UserAddOutlined } from '@ant-design/icons';
import { memberImportColumns, type OrganizationDetail, type OrganizationSummary } from '@doanhoi/shared';
import { useCan, useDataProvider, useDelete, useTranslate } from '@refinedev/core';
import { App, Button, Space, Tooltip, type ButtonProps } from 'antd';
import { useEffect, useState } from 'react';
import { useModalForm } from '../../components/form-errors';
import { ImportWizard } from '../../components/import-wizard';
import { useAllowed } from '../../components/permission-guard/use-allowed';
import { useRefreshOrganizations } from './data';
import { OrganizationFormModal } from './form';
import { deleteRefusal } from './manage';
import { AddMemberModal, importLevel, manualAddOffered } from './member-actions';
import type { RowNode } from './org-row';

interface Props {
  node: RowNode & { hasChildren?: boolean };
  ancestorIds: number[];
}

/** An icon button with its name as tooltip, or the reason it is off (000 §2: disabled with a tooltip). */
function Icon({
  label,
  reason,
  icon,
  onClick,
  danger,
  testId,
}: {
  label: string;
  reason: string | null;
  icon: React.ReactNode;
  onClick: () => void;
  danger?: boolean;
  testId: string;
}) {
  return (
    <Tooltip title={reason ?? label}>
      <Button
        type="text"
        size="small"
        danger={danger}
        icon={icon}
        aria-label={label}
        disabled={reason !== null}
        onClick={onClick}
        data-testid={testId}
      />
    </Tooltip>
  );
}

/** The edit dialog of one row, mounted while it is open (a tree has hundreds of rows). */
function EditDialog({ id, onDone }: { id: number; onDone: () => void }) {
  const t = useTranslate();
  const refresh = useRefreshOrganizations();
  const edit = useModalForm<OrganizationSummary>({
    resource: 'organizations',
    action: 'edit',
    id,
    redirect: false,
    successNotification: () => ({ type: 'success', message: t('organizations:edit.success') }),
    onMutationSuccess: () => refresh(),
  });
  const { show, open } = edit;
  useEffect(() => {
    show(id);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- opened once, when mounted
  }, []);
  // Closed (saved or cancelled): the dialog goes away with its form.
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (open) setShown(true);
    else if (shown) onDone();
  }, [open, shown, onDone]);
  // The form stays off until Refine has copied the record into it (as on the detail page).
  const loaded = edit.query?.data?.data;
  const [filled, setFilled] = useState<unknown>(undefined);
  useEffect(() => setFilled(loaded), [loaded]);
  const loading = edit.query?.isFetching === true || loaded === undefined || filled !== loaded;
  return <OrganizationFormModal action="edit" modalProps={edit.modalProps} formProps={{ ...edit.formProps, disabled: loading }} />;
}

/**
 * The action icons of an organization row (000 §2): add a member (import from a file where 000 §6
 * offers only that), edit, delete. Each is checked in the row's own organization and shown disabled
 * with the reason; delete says why it cannot happen (children, members, campaigns) instead of failing.
 */
export function OrgRowActions({ node, ancestorIds }: Props) {
  const t = useTranslate();
  const { modal, notification } = App.useApp();
  const dataProvider = useDataProvider();
  const { mutateAsync: remove } = useDelete();
  const [dialog, setDialog] = useState<'add' | 'import' | 'edit' | null>(null);
  const canSearchUsers = useCan({ resource: 'users', action: 'list' }).data?.can ?? false;
  const where = { organizationId: node.id, ancestorIds };
  const canAdd = useAllowed(['organizations.add_member', 'organizations.manage_members'], where, 'any');
  const canEdit = useAllowed('organizations.update', where);
  const canDelete = useAllowed('organizations.delete', where);
  const manual = manualAddOffered(node);
  const level = importLevel(node.type);
  const refreshOrganizations = useRefreshOrganizations();
  const refresh = () => refreshOrganizations();

  const known = node.hasChildren
    ? t('organizations:delete.hasChildren')
    : (node.memberCount ?? 0) > 0
      ? t('organizations:delete.hasMembers')
      : null;

  async function confirmDelete() {
    // Campaigns are not on the row: the detail says whether the server would refuse, before asking.
    let detail: OrganizationDetail;
    try {
      detail = (await dataProvider().getOne<OrganizationDetail>({ resource: 'organizations', id: node.id })).data;
    } catch (e) {
      notification.error({ message: t('organizations:delete.failed'), description: (e as Error).message });
      return;
    }
    const blocked = detail.hasChildren
      ? t('organizations:delete.hasChildren')
      : detail.memberCount > 0
        ? t('organizations:delete.hasMembers')
        : detail.campaignCount > 0
          ? t('organizations:delete.hasCampaigns', { count: detail.campaignCount })
          : null;
    if (blocked) {
      modal.warning({ title: t('organizations:delete.failed'), content: blocked });
      return;
    }
    modal.confirm({
      title: t('organizations:delete.title'),
      content: t('organizations:delete.message', { name: node.name }),
      okText: t('buttons.delete'),
      okButtonProps: { danger: true, 'data-testid': 'confirm-delete' } as ButtonProps,
      cancelText: t('buttons.cancel'),
      onOk: async () => {
        try {
          await remove({ resource: 'organizations', id: node.id, successNotification: false, errorNotification: false });
        } catch (e) {
          notification.error({ message: t('organizations:delete.failed'), description: deleteRefusal((e as Error).message, t) });
          return;
        }
        notification.success({ message: t('organizations:delete.success', { name: node.name }) });
        refresh();
      },
    });
  }

  const noAdd = canAdd ? null : t('organizations:noPermission.addMember');
  return (
    <Space size={0} className="org-row-actions" data-testid="org-row-actions">
      {manual ? (
        <Icon
          label={t('organizations:members.add')}
          reason={noAdd}
          icon={<UserAddOutlined />}
          onClick={() => setDialog('add')}
          testId="org-row-add-member"
        />
      ) : (
        level && (
          <Icon
            label={t('organizations:members.importFor')}
            reason={noAdd}
            icon={<UploadOutlined />}
            onClick={() => setDialog('import')}
            testId="org-row-import"
          />
        )
      )}
      <Icon
        label={t('buttons.edit')}
        reason={canEdit ? null : t('organizations:noPermission.edit')}
        icon={<EditOutlined />}
        onClick={() => setDialog('edit')}
        testId="org-row-edit"
      />
      <Icon
        label={t('buttons.delete')}
        reason={canDelete ? known : t('organizations:noPermission.delete')}
        icon={<DeleteOutlined />}
        danger
        onClick={() => void confirmDelete()}
        testId="org-row-delete"
      />
      {dialog === 'add' && <AddMemberModal org={node} open onClose={() => setDialog(null)} canSearch={canSearchUsers} onAdded={refresh} />}
      {dialog === 'import' && level && (
        <ImportWizard
          open
          onClose={() => {
            setDialog(null);
            refresh();
          }}
          resource={`organizations/${node.id}/members`}
          paths={{
            upload: `/organizations/members/import/upload?level=${level}&organizationId=${node.id}`,
            session: '/organizations/import',
            template: `/organizations/members/import/template/${level}`,
          }}
          columns={memberImportColumns(level)}
          templateName={`organization_members_level${level}_template.xlsx`}
          title={t('organizations:members.importTitle', { name: node.name, level })}
        />
      )}
      {dialog === 'edit' && <EditDialog id={node.id} onDone={() => setDialog(null)} />}
    </Space>
  );
}
