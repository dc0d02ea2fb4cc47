import type { NewSiteDefaults } from '@rampart/contracts';
import Form from 'antd/es/form';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { PROTECTION_LOCALES } from '../protection/locales/bundle.ts';
import { ObjectSelect } from '../protection/shared/ObjectSelect.tsx';
import { CacheRulesEditor } from '../sites/edit/ListEditors.tsx';
import { SITES_LOCALES } from '../sites/locales/bundle.ts';
import { ConfigCard } from './ConfigCard.tsx';
import { grid, SwitchItem } from './fields.tsx';
import { EDGE_SETTINGS_LOCALES } from './locales/bundle.ts';

const FIELDS = ['http_listen', 'https_listen', 'force_https', 'http2', 'gzip', 'cache_rules', 'rule_group_id'] as const;
const same = (value: NewSiteDefaults) => value;
const fromForm = (values: NewSiteDefaults): NewSiteDefaults => ({
  ...values,
  cache_rules: values.cache_rules ?? [],
  rule_group_id: values.rule_group_id ?? null,
});

/** Spec §2 /config/default (admin:config): what new sites start with (configs global-0-site-defaults). */
export const Component = () => {
  const { t } = useLocales(EDGE_SETTINGS_LOCALES, SITES_LOCALES, PROTECTION_LOCALES);
  const f = (key: string) => t(`edgeSettings.defaults.${key}`);
  return (
    <ConfigCard name="defaults" title={f('title')} help={f('help')} toForm={same} fromForm={fromForm} fields={FIELDS}>
      <div style={grid}>
        <SwitchItem name="http_listen" label={f('httpListen')} extra={f('httpListenHelp')} />
        <SwitchItem name="https_listen" label={f('httpsListen')} extra={f('httpsListenHelp')} />
        <SwitchItem name="force_https" label={f('forceHttps')} extra={f('forceHttpsHelp')} />
        <SwitchItem name="http2" label={f('http2')} extra={f('http2Help')} />
        <SwitchItem name="gzip" label={f('gzip')} extra={f('gzipHelp')} />
        <Form.Item name="rule_group_id" label={f('ruleGroup')} extra={f('ruleGroupHelp')}>
          <ObjectSelect kind="groups" owners={[0]} allowNone aria-label={f('ruleGroup')} style={{ width: 260 }} />
        </Form.Item>
      </div>
      <Form.Item label={f('cacheRules')} extra={f('cacheRulesHelp')}>
        <CacheRulesEditor />
      </Form.Item>
    </ConfigCard>
  );
};
