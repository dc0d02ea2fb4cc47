import DownOutlined from '@ant-design/icons/DownOutlined';
import Dropdown from 'antd/es/dropdown';
import type { MenuProps } from 'antd/es/menu';
import Tabs from 'antd/es/tabs';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { MenuIcon } from '../menu/MenuIcon.tsx';
import type { LayoutSettings } from '../settings/layoutSettings.ts';
import { useReloads } from '../shell/reloadStore.ts';
import { DraggableTab } from './DraggableTab.tsx';
import { closeMenuItems } from './tabCommands.ts';
import type { CloseCommand } from './tabModel.ts';
import { useTabs } from './tabsStore.ts';

const isCloseCommand = (key: string): key is CloseCommand => ['left', 'right', 'others', 'all'].includes(key);

/** Spec §2 tab bar: card style, closable, drag to reorder, a close menu per tab. */
export const TabBar = ({ settings }: { settings: LayoutSettings }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const current = `${pathname}${search}`;
  const tabs = useTabs((state) => state.tabs);
  const reload = useReloads((state) => state.reload);

  const go = (next: string | undefined) => {
    if (next !== undefined) navigate(next);
  };
  const menuFor = (fullPath: string): MenuProps => ({
    items: closeMenuItems(tabs, fullPath, t),
    onClick: ({ key, domEvent }) => {
      domEvent.stopPropagation();
      if (isCloseCommand(key)) go(useTabs.getState().closeMany(key, fullPath, current));
    },
  });
  const onTabClick = (key: string) => {
    if (key !== current) navigate(key);
    // Clicking the current tab reloads it only with the reload option on (spec §2).
    else if (settings.tabsReload) reload(key);
  };

  return (
    <div className="rp-tabs" data-testid="tab-bar" data-fixed={settings.tabsFix}>
      <Tabs
        type="editable-card"
        hideAdd
        size="small"
        aria-label={t('layout.tabs.label')}
        locale={{ removeAriaLabel: t('layout.tabs.close') }}
        activeKey={tabs.some((tab) => tab.fullPath === current) ? current : ''}
        onTabClick={onTabClick}
        onEdit={(key, action) => {
          if (action === 'remove' && typeof key === 'string') go(useTabs.getState().close(key, current));
        }}
        items={tabs.map((tab) => ({
          key: tab.fullPath,
          closable: tab.meta.closable,
          label: (
            <span className="rp-tab-label">
              {settings.showTabsIcon && tab.meta.icon && <MenuIcon icon={tab.meta.icon} />}
              {t(tab.meta.title)}
            </span>
          ),
        }))}
        renderTabBar={(props, DefaultTabBar) => (
          <DefaultTabBar {...props}>
            {(node) => (
              <DraggableTab
                key={node.key}
                node={node}
                tabKey={String(node.key)}
                menu={menuFor(String(node.key))}
                draggable={settings.tabsOrder && String(node.key) !== tabs[0]?.fullPath}
                onMove={(from, to) => useTabs.getState().move(from, to)}
              />
            )}
          </DefaultTabBar>
        )}
        tabBarExtraContent={
          <Dropdown menu={menuFor(current)} trigger={['click']}>
            <button type="button" className="rp-tabs-actions" aria-label={t('layout.tabs.actions')}>
              <DownOutlined />
            </button>
          </Dropdown>
        }
      />
    </div>
  );
};
