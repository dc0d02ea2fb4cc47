import { HEALTH_CHECK_MAX_COUNT, HEALTH_CHECK_MAX_INTERVAL, HEALTH_CHECK_MAX_TIMEOUT } from '@rampart/contracts';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import InputNumber from 'antd/es/input-number';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { healthCheckRules, normalizeStatuses } from './healthCheckValues.ts';
import { OriginStates } from './OriginStates.tsx';

const COUNTS = ['interval', 'timeout', 'failures', 'successes'] as const;
const LIMITS: Record<(typeof COUNTS)[number], [number, number]> = {
  interval: [1, HEALTH_CHECK_MAX_INTERVAL],
  timeout: [1, HEALTH_CHECK_MAX_TIMEOUT],
  failures: [1, HEALTH_CHECK_MAX_COUNT],
  successes: [1, HEALTH_CHECK_MAX_COUNT],
};

/**
 * Origin health checks of the site edit page: the check each edge runs against the site's origins,
 * saved with the site, and each origin's state as the nodes see it (for a check saved on).
 */
export const HealthCheckSection = ({ siteId, savedOn }: { siteId: number; savedOn: boolean }) => {
  const { t } = useTranslation();
  const rules = healthCheckRules(t);
  return (
    <div data-testid="health-check-section">
      <Typography.Paragraph type="secondary">{t('sites.healthCheck.intro')}</Typography.Paragraph>
      <OriginStates siteId={siteId} enabled={savedOn} />
      <Form.Item name={['health_check', 'enabled']} label={t('sites.healthCheck.enabled')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item
        name={['health_check', 'path']}
        label={t('sites.healthCheck.path')}
        extra={t('sites.healthCheck.pathHelp')}
        rules={rules.path}
      >
        <Input placeholder="/healthz" style={{ maxWidth: 560 }} />
      </Form.Item>
      <Form.Item
        name={['health_check', 'host']}
        label={t('sites.healthCheck.host')}
        extra={t('sites.healthCheck.hostHelp')}
        rules={rules.host}
      >
        <Input placeholder="origin.example.com" style={{ maxWidth: 560 }} />
      </Form.Item>
      <Form.Item
        name={['health_check', 'statuses']}
        label={t('sites.healthCheck.statuses')}
        extra={t('sites.healthCheck.statusesHelp')}
        rules={rules.statuses}
        normalize={normalizeStatuses}
      >
        <Select mode="tags" tokenSeparators={[',', ' ']} suffixIcon={null} style={{ maxWidth: 560 }} />
      </Form.Item>
      {COUNTS.map((name) => (
        <Form.Item
          key={name}
          name={['health_check', name]}
          label={t(`sites.healthCheck.${name}`)}
          extra={t(`sites.healthCheck.${name}Help`)}
          rules={rules[name]}
          {...(name === 'timeout' ? { dependencies: [['health_check', 'interval']] } : {})}
        >
          <InputNumber
            min={LIMITS[name][0]}
            max={LIMITS[name][1]}
            precision={0}
            {...(name === 'interval' || name === 'timeout' ? { suffix: t('sites.healthCheck.seconds') } : {})}
            style={{ width: 200 }}
          />
        </Form.Item>
      ))}
    </div>
  );
};
