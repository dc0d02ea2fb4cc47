import type { SystemSettingGroup } from '@rampart/contracts';
import Tabs from 'antd/es/tabs';
import { useState } from 'react';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { SETTINGS_LOCALES } from './locales/bundle.ts';
import { usePaymentTab } from './payment/PaymentSettingsTab.tsx';
import { SettingGroupForm } from './SettingGroupForm.tsx';
import { StorageSize } from './StorageSize.tsx';
import { SETTING_GROUPS } from './settingFields.ts';

/** Spec §2 /sys/setting (admin:sys): a tab per group of system settings, each saved on its own. */
export const Component = () => {
  const { t } = useLocales(SETTINGS_LOCALES);
  const [group, setGroup] = useState<SystemSettingGroup | 'payment'>('site');
  const paymentTab = usePaymentTab();
  return (
    <section data-testid="sys-setting-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <Tabs
        // A dozen groups overflow a row of tabs at 1280 px and hide the last ones: list them down the side.
        tabPlacement="start"
        activeKey={group}
        onChange={(key) => setGroup(key as SystemSettingGroup | 'payment')}
        destroyOnHidden
        items={[
          ...SETTING_GROUPS.map((each) => ({
            key: each,
            label: t(`settings.tab.${each}`),
            children: (
              <>
                {each === 'retention' && <StorageSize />}
                <SettingGroupForm group={each} />
              </>
            ),
          })),
          paymentTab,
        ]}
      />
    </section>
  );
};
