import SearchOutlined from '@ant-design/icons/SearchOutlined';
import type { MenuItem } from '@rampart/contracts';
import Dropdown from 'antd/es/dropdown';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HeaderButton } from './HeaderButton.tsx';

// The input and its results load when the search opens.
const MenuSearchPanel = lazy(async () => ({ default: (await import('./MenuSearchPanel.tsx')).MenuSearchPanel }));

/** Spec §2 search box: finds a page of the menu by its title or path. */
export const HeaderSearch = ({ sider }: { sider: readonly MenuItem[] }) => {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Dropdown
      open={open}
      onOpenChange={setOpen}
      trigger={['click']}
      popupRender={() => (
        <Suspense fallback={null}>
          <MenuSearchPanel sider={sider} onDone={() => setOpen(false)} />
        </Suspense>
      )}
    >
      <HeaderButton label={t('layout.header.search')} aria-expanded={open}>
        <SearchOutlined />
      </HeaderButton>
    </Dropdown>
  );
};
