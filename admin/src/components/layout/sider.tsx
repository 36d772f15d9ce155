import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { useThemedLayoutContext } from '@refinedev/antd';
import { useLink, useMenu, useTranslate, type TreeMenuItem } from '@refinedev/core';
import { Button, ConfigProvider, Grid, Layout, Menu, Spin, type MenuProps } from 'antd';
import { useEffect } from 'react';
import { useRights } from '../permission-guard/use-allowed';
import { alternatives, DATA_MANAGEMENT, externalNavItems } from '../../resources';
import { preloadLikelyScreens, preloadScreen } from '../../screens';
import { AppTitle } from './title';

type Item = NonNullable<MenuProps['items']>[number];

/**
 * Side navigation (000 §2 "Layout"): each resource appears only with its meta.permission in the
 * current organization; a group disappears when none of its children remain.
 * ThemedLayout also calls this as a plain function to learn whether a sider exists, so only
 * unconditional hooks are used here.
 */
/** Every code a menu item may be shown for, in a stable order (the question's cache key). */
function menuCodes(items: readonly TreeMenuItem[]): string[] {
  const codes = new Set<string>();
  const walk = (list: readonly TreeMenuItem[]) =>
    list.forEach((item) => {
      if (typeof item.meta?.permission === 'string') [item.meta.permission, ...alternatives(item.meta)].forEach((c) => codes.add(c));
      walk(item.children);
    });
  walk(items);
  return [...codes].sort();
}

export function Sider() {
  const t = useTranslate();
  const Link = useLink();
  const { siderCollapsed, setSiderCollapsed } = useThemedLayoutContext();
  const { menuItems, selectedKey } = useMenu();
  // One question for every menu code; an item shows when any of its codes is held here.
  const { has, ready } = useRights(menuCodes(menuItems));
  const can = (codes: readonly string[]) => codes.some(has);
  // Phones: the collapsed sider keeps its icons in 56 px instead of 80, a seventh of a 390 px screen.
  const phone = !Grid.useBreakpoint().sm;
  const collapsedWidth = phone ? 56 : 80;

  const toItem = (item: TreeMenuItem): Item | null => {
    const label = t(String(item.meta?.label ?? item.name));
    if (item.children.length > 0) {
      const children = item.children.map(toItem).filter((c): c is Item => c !== null);
      return children.length ? { key: item.key, icon: item.meta?.icon, label, children } : null;
    }
    const permission = item.meta?.permission;
    if (typeof permission === 'string' && !can([permission, ...alternatives(item.meta)])) return null;
    // The screen's code starts loading as the pointer reaches the link, before the click.
    const preload = () => preloadScreen(item.route);
    return {
      key: item.key,
      icon: item.meta?.icon,
      label: (
        <Link to={item.route ?? '/'} onMouseEnter={preload} onFocus={preload}>
          {label}
        </Link>
      ),
    };
  };

  const items: Item[] = [
    ...menuItems.map(toItem).filter((i): i is Item => i !== null),
    // The portal is another app on this origin, so a plain link does a full page load.
    ...externalNavItems.map((x) => ({ key: x.key, icon: x.icon, label: <a href={x.href}>{t(x.label)}</a> })),
  ];
  const groupKey = menuItems.find((i) => i.name === DATA_MANAGEMENT)?.key;
  const showsUsers = ready && can(['users.access']);
  useEffect(() => {
    if (showsUsers) preloadLikelyScreens();
  }, [showsUsers]);

  return (
    <Layout.Sider
      theme="light"
      className="app-sider"
      width={240}
      collapsible
      collapsedWidth={collapsedWidth}
      collapsed={siderCollapsed}
      breakpoint="lg"
      onBreakpoint={(broken) => setSiderCollapsed(broken)}
      trigger={null}
    >
      <div className="app-sider-title">
        <AppTitle collapsed={siderCollapsed} />
      </div>
      <nav data-testid="side-nav" aria-label={t('nav.label')} className="app-sider-nav">
        {!ready ? (
          <div className="guard-loading" role="status">
            <Spin size="small" />
            <span>{t('loading')}</span>
          </div>
        ) : (
          <ConfigProvider theme={{ components: { Menu: { collapsedWidth } } }}>
            <Menu
              // Mounted again when the sider collapses: an open group then became a floating popup that
              // covered the screen on phones, where the sider starts collapsed (issue 13).
              key={siderCollapsed ? 'collapsed' : 'expanded'}
              mode="inline"
              items={items}
              selectedKeys={selectedKey ? [selectedKey] : []}
              // 000 §2: the data-management group starts expanded (in the expanded sider).
              defaultOpenKeys={groupKey && !siderCollapsed ? [groupKey] : []}
            />
          </ConfigProvider>
        )}
      </nav>
      <Button
        type="text"
        block
        className="app-sider-trigger"
        aria-label={t(siderCollapsed ? 'nav.expand' : 'nav.collapse')}
        aria-expanded={!siderCollapsed}
        icon={siderCollapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
        onClick={() => setSiderCollapsed(!siderCollapsed)}
      />
    </Layout.Sider>
  );
}
