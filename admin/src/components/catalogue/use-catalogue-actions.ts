import { useCan, useCustomMutation, useDelete, useInvalidate, useTranslate, type BaseKey } from '@refinedev/core';
import { App, type ButtonProps } from 'antd';
import type { ReactNode } from 'react';
import { API_URL } from '../../providers/http';

/**
 * What the caller may do on a catalogue screen (each action asked of the access-control provider,
 * so buttons the API would refuse are not shown), and the delete / bulk-delete flows with their
 * confirmation dialogs. The bulk path (`<resource>/bulk`, roles: `roles`) takes `{ ids }` (000 §7).
 * `ns` is the screen's translation namespace when it is not the resource's name (roles → permissions).
 */
export function useCatalogueActions(resource: string, onBulkDeleted: () => void, bulkPath = `${resource}/bulk`, ns = resource) {
  const t = useTranslate();
  const { modal } = App.useApp();
  const invalidate = useInvalidate();
  const can = {
    show: useCan({ resource, action: 'show' }).data?.can ?? false,
    create: useCan({ resource, action: 'create' }).data?.can ?? false,
    edit: useCan({ resource, action: 'edit' }).data?.can ?? false,
    delete: useCan({ resource, action: 'delete' }).data?.can ?? false,
  };
  const { mutate: deleteOne } = useDelete();
  const { mutate: custom, mutation: bulk } = useCustomMutation();

  /** `content` replaces the default "delete {name}?" text (roles list what the deletion takes with it). */
  function confirmDelete(id: BaseKey, name: string, content?: ReactNode) {
    modal.confirm({
      title: t(`${ns}:delete.title`),
      content: content ?? t(`${ns}:delete.message`, { name }),
      okText: t('buttons.delete'),
      okButtonProps: { danger: true, 'data-testid': 'confirm-delete' } as ButtonProps,
      cancelText: t('buttons.cancel'),
      // Only lists refresh: a detail query of the deleted row (a closed edit form keeps its id) would answer 404.
      onOk: () => new Promise<void>((resolve) => deleteOne({ resource, id, invalidates: ['list'] }, { onSettled: () => resolve() })),
    });
  }

  function confirmBulkDelete(ids: BaseKey[]) {
    modal.confirm({
      title: t(`${ns}:bulkDelete.title`, { count: ids.length }),
      content: t(`${ns}:bulkDelete.message`, { count: ids.length }),
      okText: t('buttons.delete'),
      okButtonProps: { danger: true, 'data-testid': 'confirm-delete' } as ButtonProps,
      cancelText: t('buttons.cancel'),
      onOk: () =>
        new Promise<void>((resolve) =>
          custom(
            {
              url: `${API_URL}/${bulkPath}`,
              method: 'delete',
              values: { ids },
              successNotification: (data) => {
                // Catalogues and users answer deletedCount, roles deletedRoles (000 §7).
                const body = data?.data as { deletedCount?: number; deletedRoles?: number } | undefined;
                return {
                  type: 'success',
                  message: t(`${ns}:bulkDelete.done`, { count: body?.deletedCount ?? body?.deletedRoles ?? ids.length }),
                };
              },
            },
            {
              onSuccess: () => {
                onBulkDeleted();
                void invalidate({ resource, invalidates: ['list'] });
              },
              onSettled: () => resolve(),
            },
          ),
        ),
    });
  }

  return { can, confirmDelete, confirmBulkDelete, bulkDeleting: bulk.isPending };
}
