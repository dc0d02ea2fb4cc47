import Tabs from 'antd/es/tabs';
import { useLocales } from '../../../shared/i18n/useLocales.ts';
import { PROTECTION_LOCALES } from '../locales/bundle.ts';
import { BanHistoryTab } from './BanHistoryTab.tsx';
import { BansTab } from './BansTab.tsx';
import { BlockLogTab } from './BlockLogTab.tsx';

/** Spec §2 /site/block-log: the requests protection stopped, current bans and ban history. */
export const Component = () => {
  const { t } = useLocales(PROTECTION_LOCALES);
  return (
    <section data-testid="block-log-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <Tabs
        destroyOnHidden
        items={[
          { key: 'log', label: t('protection.blockLog.tab'), children: <BlockLogTab /> },
          { key: 'bans', label: t('protection.bans.tab'), children: <BansTab /> },
          { key: 'history', label: t('protection.bans.historyTab'), children: <BanHistoryTab /> },
        ]}
      />
    </section>
  );
};
