import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import Spin from 'antd/es/spin';
import Table from 'antd/es/table';
import Tabs from 'antd/es/tabs';
import { useState } from 'react';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { useTotalText } from '../../shared/table/totals.ts';
import {
  type IpSwitchEntry,
  type NodeIpStateEntry,
  type SwitchQuery,
  useIpStates,
  useIpSwitchLog,
  useMonitorSettings,
} from './api.ts';
import { NODE_MONITOR_LOCALES } from './locales/bundle.ts';
import { MonitorSettingsForm } from './MonitorSettingsForm.tsx';
import { stateColumns, switchColumns } from './monitorColumns.tsx';

const SwitchLog = () => {
  const { t, i18n } = useLocales(NODE_MONITOR_LOCALES);
  const totalText = useTotalText();
  const [query, setQuery] = useState<SwitchQuery>({ page: 1, limit: 20 });
  const [ip, setIp] = useState('');
  const [to, setTo] = useState<SwitchQuery['to']>();
  const log = useIpSwitchLog(query);
  return (
    <>
      <Space wrap style={{ marginBottom: 16 }}>
        <Input
          aria-label={t('nodeMonitor.filter.ip')}
          placeholder={t('nodeMonitor.filter.ip')}
          value={ip}
          allowClear
          onChange={(event) => setIp(event.target.value.trim())}
          style={{ width: 200 }}
        />
        <Select
          aria-label={t('nodeMonitor.filter.to')}
          placeholder={t('nodeMonitor.filter.to')}
          value={to}
          allowClear
          onChange={(value) => setTo(value)}
          style={{ width: 160 }}
          options={[
            { value: 'down', label: t('nodeMonitor.state.down') },
            { value: 'up', label: t('nodeMonitor.state.up') },
          ]}
        />
        <Button type="primary" onClick={() => setQuery({ page: 1, limit: query.limit, ip: ip || undefined, to })}>
          {t('nodeMonitor.filter.search')}
        </Button>
      </Space>
      <Table<IpSwitchEntry>
        rowKey="id"
        size="middle"
        data-testid="ip-switch-table"
        loading={log.isFetching && !log.data}
        dataSource={log.data?.list ?? []}
        columns={switchColumns(t, i18n.language)}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: query.page,
          pageSize: query.limit,
          total: log.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: totalText,
        }}
        onChange={(pagination) =>
          setQuery({ ...query, page: pagination.current ?? 1, limit: pagination.pageSize ?? 20 })
        }
      />
    </>
  );
};

const IpStates = () => {
  const { t, i18n } = useLocales(NODE_MONITOR_LOCALES);
  const states = useIpStates();
  return (
    <Table<NodeIpStateEntry>
      rowKey="ip"
      size="middle"
      data-testid="ip-state-table"
      loading={states.isFetching && !states.data}
      dataSource={states.data ?? []}
      columns={stateColumns(t, i18n.language)}
      scroll={{ x: 'max-content' }}
      pagination={false}
    />
  );
};

/** Spec §2 /node/monitor-setting (admin:node): health-check settings, the IPs' states and the IP-switch log. */
export const Component = () => {
  const { t } = useLocales(NODE_MONITOR_LOCALES);
  const settings = useMonitorSettings();
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }} data-testid="node-monitor-page">
      <Card title={t('nodeMonitor.settings.title')}>
        <p style={{ color: 'rgba(0,0,0,0.45)' }}>{t('nodeMonitor.settings.help')}</p>
        {settings.data ? <MonitorSettingsForm settings={settings.data} /> : <Spin spinning={settings.isPending} />}
      </Card>
      <Card>
        <Tabs
          items={[
            { key: 'states', label: t('nodeMonitor.tab.states'), children: <IpStates /> },
            { key: 'switches', label: t('nodeMonitor.tab.switches'), children: <SwitchLog /> },
          ]}
        />
      </Card>
    </Space>
  );
};
