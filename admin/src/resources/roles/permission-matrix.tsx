import { categoryOrder, type Permission } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { App, Button, Card, Checkbox, Collapse, Divider, Space, Statistic, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { permissionName } from './permission-name';

interface Props {
  permissions: Permission[];
  value?: number[];
  onChange?: (ids: number[]) => void;
}

interface Group {
  category: string;
  base: Permission | undefined;
  dependents: Permission[];
  all: Permission[];
}

/** Categories in 000 §2's order, each with its `.access` permission first. */
function groupByCategory(permissions: Permission[]): Group[] {
  const by = new Map<string, Permission[]>();
  for (const p of permissions) by.set(p.category, [...(by.get(p.category) ?? []), p]);
  return [...by.entries()]
    .sort(([a], [b]) => categoryOrder(a) - categoryOrder(b))
    .map(([category, list]) => {
      const sorted = [...list].sort((a, b) => a.sortOrder - b.sortOrder);
      const base = sorted.find((p) => p.code === `${category}.access`);
      return { category, base, dependents: sorted.filter((p) => p !== base), all: sorted };
    });
}

/**
 * The role form's permission picker: one collapsible panel per category with a tri-state box,
 * selected/total, select-all and deselect-all. A dependent permission needs its category's
 * `.access` (chosen with it); removing `.access` removes the dependents too.
 */
export function PermissionMatrix({ permissions, value = [], onChange }: Props) {
  const t = useTranslate();
  const { modal } = App.useApp();
  const groups = useMemo(() => groupByCategory(permissions), [permissions]);
  const selected = new Set(value);
  const set = (next: Set<number>) => onChange?.([...next].sort((a, b) => a - b));

  function toggle(group: Group, p: Permission, on: boolean) {
    const ticked = group.dependents.filter((d) => selected.has(d.id));
    // 000 §4: unticking `.access` while dependents are ticked asks first; on confirm the whole category goes.
    if (!on && p === group.base && ticked.length > 0) {
      modal.confirm({
        title: t('permissions:matrix.removeAccess.title', { category: t(`permissions:categories.${group.category}`) }),
        content: t('permissions:matrix.removeAccess.message', { count: ticked.length }),
        okText: t('permissions:matrix.removeAccess.ok'),
        okButtonProps: { danger: true },
        cancelText: t('buttons.cancel'),
        onOk: () => setGroup(group, false),
      });
      return;
    }
    const next = new Set(selected);
    if (on) {
      next.add(p.id);
      if (group.base && p !== group.base) next.add(group.base.id);
    } else {
      next.delete(p.id);
      if (p === group.base) for (const d of group.dependents) next.delete(d.id);
    }
    set(next);
  }

  function setGroup(group: Group, on: boolean) {
    const next = new Set(selected);
    for (const p of group.all) {
      if (on) next.add(p.id);
      else next.delete(p.id);
    }
    set(next);
  }

  const label = (p: Permission) => (
    <Space size={4}>
      <span>{permissionName(t, p)}</span>
      <Typography.Text type="secondary" className="permission-code">
        {p.code}
      </Typography.Text>
      {p.context === 'system' && <Tag color="purple">{t('permissions:matrix.system')}</Tag>}
    </Space>
  );

  const touched = groups.filter((g) => g.all.some((p) => selected.has(p.id))).length;

  return (
    <Space direction="vertical" className="full-width" data-testid="permission-matrix">
      <Card size="small" className="permission-summary">
        <Space size="large">
          <Statistic title={t('permissions:matrix.selected')} value={value.length} suffix={`/ ${permissions.length}`} />
          <Statistic title={t('permissions:matrix.groups')} value={touched} suffix={`/ ${groups.length}`} />
        </Space>
      </Card>
      <Collapse
        size="small"
        items={groups.map((g) => {
          const count = g.all.filter((p) => selected.has(p.id)).length;
          return {
            key: g.category,
            label: (
              <Space>
                {/* The box selects; the rest of the header opens the panel. */}
                <span onClick={(e) => e.stopPropagation()}>
                  <Checkbox
                    checked={count === g.all.length}
                    indeterminate={count > 0 && count < g.all.length}
                    onChange={(e) => setGroup(g, e.target.checked)}
                    aria-label={t(`permissions:categories.${g.category}`)}
                  />
                </span>
                <Typography.Text strong>{t(`permissions:categories.${g.category}`)}</Typography.Text>
                <Tag data-testid={`matrix-count-${g.category}`}>
                  {count}/{g.all.length}
                </Tag>
              </Space>
            ),
            extra: (
              <Space size={0} onClick={(e) => e.stopPropagation()}>
                <Button size="small" type="link" onClick={() => setGroup(g, true)}>
                  {t('permissions:matrix.selectAll')}
                </Button>
                <Button size="small" type="link" onClick={() => setGroup(g, false)}>
                  {t('permissions:matrix.deselectAll')}
                </Button>
              </Space>
            ),
            children: (
              <Space direction="vertical" className="full-width" data-testid={`matrix-${g.category}`}>
                {g.base && (
                  <Checkbox checked={selected.has(g.base.id)} onChange={(e) => toggle(g, g.base!, e.target.checked)}>
                    {label(g.base)} <Tag color="blue">{t('permissions:matrix.basic')}</Tag>
                    <Tag color="red">{t('permissions:matrix.required')}</Tag>
                  </Checkbox>
                )}
                {g.dependents.length > 0 && g.base && (
                  <Divider plain orientation="left" className="matrix-divider">
                    {t('permissions:matrix.dependents')}
                  </Divider>
                )}
                {g.dependents.map((p) => (
                  <Checkbox
                    key={p.id}
                    checked={selected.has(p.id)}
                    onChange={(e) => toggle(g, p, e.target.checked)}
                    className={g.base ? 'matrix-dependent' : undefined}
                  >
                    {label(p)}
                  </Checkbox>
                ))}
              </Space>
            ),
          };
        })}
      />
    </Space>
  );
}
