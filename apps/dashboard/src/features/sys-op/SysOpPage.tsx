import Tabs from 'antd/es/tabs';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { GeoipPanel } from '../geoip/GeoipPanel.tsx';
import { AgentCheckPanel } from './AgentCheckPanel.tsx';
import { AgentUpgradePanel } from './AgentUpgradePanel.tsx';
import { SYS_OP_LOCALES } from './locales/bundle.ts';
import { MasterUpgradePanel } from './MasterUpgradePanel.tsx';
import { TransferPanel } from './TransferPanel.tsx';

/** Spec §2 /sys/op (admin:sys): the agents' self-test, agent and master upgrades, the master's transfer, the GeoIP database. */
export const Component = () => {
  const { t } = useLocales(SYS_OP_LOCALES);
  return (
    <section data-testid="sys-op-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <Tabs
        destroyOnHidden
        items={[
          { key: 'check', label: t('sysOp.tab.check'), children: <AgentCheckPanel /> },
          { key: 'agent', label: t('sysOp.tab.agent'), children: <AgentUpgradePanel /> },
          { key: 'master', label: t('sysOp.tab.master'), children: <MasterUpgradePanel /> },
          { key: 'transfer', label: t('sysOp.tab.transfer'), children: <TransferPanel /> },
          { key: 'geoip', label: t('sysOp.tab.geoip'), children: <GeoipPanel /> },
        ]}
      />
    </section>
  );
};
