import { type EdgeEnforcementSettings, THROTTLE_KBPS_MAX } from '@rampart/contracts';
import Form from 'antd/es/form';
import Radio from 'antd/es/radio';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { ConfigCard } from './ConfigCard.tsx';
import { grid, NumberItem } from './fields.tsx';
import { EDGE_SETTINGS_LOCALES } from './locales/bundle.ts';

const FIELDS = ['policy', 'throttle_kbps'] as const;
const same = (value: EdgeEnforcementSettings) => value;

/** What the edges do with the sites of a package that is expired, suspended or past its monthly traffic. */
export const EnforcementCard = () => {
  const { t } = useLocales(EDGE_SETTINGS_LOCALES);
  const f = (key: string) => t(`edgeSettings.enforcement.${key}`);
  return (
    <ConfigCard name="enforcement" title={f('title')} help={f('help')} toForm={same} fromForm={same} fields={FIELDS}>
      <div style={grid}>
        <Form.Item name="policy" label={f('policy')} extra={f('policyHelp')}>
          <Radio.Group
            aria-label={f('policy')}
            options={[
              { value: 'suspend', label: f('suspend') },
              { value: 'throttle', label: f('throttle') },
            ]}
          />
        </Form.Item>
        <NumberItem
          name="throttle_kbps"
          label={f('throttleRate')}
          extra={f('throttleRateHelp')}
          min={1}
          max={THROTTLE_KBPS_MAX}
          unit="KB/s"
        />
      </div>
    </ConfigCard>
  );
};
