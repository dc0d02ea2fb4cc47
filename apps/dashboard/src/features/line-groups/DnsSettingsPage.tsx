import PlusOutlined from '@ant-design/icons/PlusOutlined';
import type { DnsApi, LineView } from '@rampart/contracts';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Popconfirm from 'antd/es/popconfirm';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { useDnsApis } from '../dns/api.ts';
import { DnsApiModal } from '../dns/DnsApiModal.tsx';
import { type CnameDomain, useCnameDomains, useDnsTtl, useLineGroupActions, useLines } from './api.ts';
import { CnameDomainModal } from './CnameDomainModal.tsx';
import { DnsTtlCard } from './DnsTtlCard.tsx';
import { LineModal } from './LineModal.tsx';
import { LINE_GROUPS_LOCALES } from './locales/bundle.ts';

const CARD = { marginBottom: 16 } as const;

/** Spec §2 /node/dns (DNS settings): DNS API accounts, record TTLs, CNAME domains with their account and zone, lines. */
export const Component = () => {
  const { t } = useLocales(LINE_GROUPS_LOCALES);
  const feedback = useFeedback();
  const accounts = useDnsApis();
  const domains = useCnameDomains();
  const lines = useLines();
  const ttl = useDnsTtl();
  const actions = useLineGroupActions();
  const [managing, setManaging] = useState(false);
  const [editing, setEditing] = useState<CnameDomain | null>();
  const [addingLine, setAddingLine] = useState(false);
  const [syncFrom, setSyncFrom] = useState<number>();
  const [syncing, setSyncing] = useState(false);
  const accountList = accounts.data ?? [];
  const accountName = (id: number | null) => {
    const account = accountList.find((entry) => entry.id === id);
    return account ? `${account.name} (${account.provider})` : t('dnsSettings.domains.none');
  };
  const attempt = async (call: () => Promise<unknown>, done: string) => {
    try {
      await call();
      feedback.success(done);
    } catch {
      // The client showed why.
    }
  };
  const sync = async () => {
    if (syncFrom === undefined) return;
    setSyncing(true);
    try {
      const result = await actions.syncLines(syncFrom);
      feedback.success(t('dnsSettings.lines.synced', { added: result.added, total: result.total }));
    } catch {
      // The client showed why.
    } finally {
      setSyncing(false);
    }
  };

  return (
    <section data-testid="dns-settings-page">
      <Card
        style={CARD}
        title={t('dnsSettings.accounts.title')}
        extra={<Button onClick={() => setManaging(true)}>{t('dnsSettings.accounts.manage')}</Button>}
      >
        <Table<DnsApi>
          rowKey="id"
          size="small"
          pagination={false}
          data-testid="dns-accounts-table"
          loading={accounts.isFetching && !accounts.data}
          dataSource={accountList}
          locale={{ emptyText: t('dnsSettings.accounts.empty') }}
          columns={[
            { key: 'name', dataIndex: 'name', title: t('dnsSettings.accounts.name') },
            { key: 'provider', dataIndex: 'provider', title: t('dnsSettings.accounts.provider') },
          ]}
        />
      </Card>
      {ttl.data && <DnsTtlCard ttl={ttl.data} />}
      <Card
        style={CARD}
        title={t('dnsSettings.domains.title')}
        extra={
          <Button icon={<PlusOutlined />} onClick={() => setEditing(null)}>
            {t('dnsSettings.domains.add')}
          </Button>
        }
      >
        <Table<CnameDomain>
          rowKey="id"
          size="small"
          pagination={false}
          data-testid="cname-domains-table"
          loading={domains.isFetching && !domains.data}
          dataSource={domains.data ?? []}
          columns={[
            {
              key: 'domain',
              title: t('dnsSettings.domains.domain'),
              render: (_, domain) => (
                <Space size={4}>
                  {domain.domain}
                  {domain.is_default && <Tag color="blue">{t('dnsSettings.domains.isDefault')}</Tag>}
                </Space>
              ),
            },
            {
              key: 'account',
              dataIndex: 'dnsapi_id',
              title: t('dnsSettings.domains.account'),
              render: (id: number | null) => accountName(id),
            },
            {
              key: 'zone',
              dataIndex: 'zone',
              title: t('dnsSettings.domains.zone'),
              render: (zone: string) => zone || '—',
            },
            { key: 'note', dataIndex: 'note', title: t('dnsSettings.domains.note') },
            {
              key: 'actions',
              title: '',
              render: (_, domain) => (
                <Space size={0}>
                  <Button
                    type="link"
                    size="small"
                    onClick={() => setEditing(domain)}
                    data-testid={`cname-domain-edit:${domain.domain}`}
                  >
                    {t('dnsSettings.domains.edit')}
                  </Button>
                  <Popconfirm
                    title={t('dnsSettings.domains.confirmDelete', { domain: domain.domain })}
                    okText={t('lineGroups.confirm.ok')}
                    cancelText={t('lineGroups.confirm.cancel')}
                    okButtonProps={{ danger: true }}
                    onConfirm={() =>
                      attempt(() => actions.removeCnameDomain(domain.id), t('dnsSettings.domains.deleted'))
                    }
                  >
                    <Button type="link" size="small" danger data-testid={`cname-domain-delete:${domain.domain}`}>
                      {t('dnsSettings.domains.delete')}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <Card
        style={CARD}
        title={t('dnsSettings.lines.title')}
        extra={
          <Space wrap>
            <span>{t('dnsSettings.lines.sync')}</span>
            <Select<number>
              style={{ width: 200 }}
              aria-label={t('dnsSettings.lines.sync')}
              value={syncFrom}
              onChange={setSyncFrom}
              options={accountList.map((account) => ({
                value: account.id,
                label: `${account.name} (${account.provider})`,
              }))}
            />
            <Button loading={syncing} disabled={syncFrom === undefined} onClick={sync} data-testid="lines-sync">
              {t('dnsSettings.lines.syncButton')}
            </Button>
            <Button icon={<PlusOutlined />} onClick={() => setAddingLine(true)}>
              {t('dnsSettings.lines.add')}
            </Button>
          </Space>
        }
      >
        <p style={{ color: 'rgba(0,0,0,0.55)' }}>{t('dnsSettings.lines.syncHelp')}</p>
        <Table<LineView>
          rowKey="id"
          size="small"
          data-testid="lines-table"
          loading={lines.isFetching && !lines.data}
          dataSource={lines.data ?? []}
          pagination={{ pageSize: 50, hideOnSinglePage: true }}
          columns={[
            { key: 'code', dataIndex: 'code', title: t('dnsSettings.lines.code') },
            {
              key: 'provider',
              dataIndex: 'provider',
              title: t('dnsSettings.lines.provider'),
              render: (provider: string) => provider || t('dnsSettings.lines.allProviders'),
            },
            { key: 'name_zh', dataIndex: 'name_zh', title: t('dnsSettings.lines.nameZh') },
            { key: 'name_en', dataIndex: 'name_en', title: t('dnsSettings.lines.nameEn') },
            {
              key: 'actions',
              title: '',
              render: (_, line) =>
                line.provider === '' && line.code === 'default' ? null : (
                  <Popconfirm
                    title={t('dnsSettings.lines.confirmDelete', { code: line.code })}
                    okText={t('lineGroups.confirm.ok')}
                    cancelText={t('lineGroups.confirm.cancel')}
                    okButtonProps={{ danger: true }}
                    onConfirm={() => attempt(() => actions.removeLine(line.id), t('dnsSettings.lines.deleted'))}
                  >
                    <Button type="link" size="small" danger>
                      {t('dnsSettings.lines.delete')}
                    </Button>
                  </Popconfirm>
                ),
            },
          ]}
        />
      </Card>
      <DnsApiModal open={managing} onClose={() => setManaging(false)} />
      {editing !== undefined && (
        <CnameDomainModal domain={editing} accounts={accountList} onClose={() => setEditing(undefined)} />
      )}
      {addingLine && <LineModal onClose={() => setAddingLine(false)} />}
    </section>
  );
};
