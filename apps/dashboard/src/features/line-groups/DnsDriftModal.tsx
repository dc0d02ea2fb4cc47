import type { DnsDifference, DnsRecordState } from '@rampart/contracts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Modal from 'antd/es/modal/Modal';
import Popconfirm from 'antd/es/popconfirm';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { type LineGroupView, useDnsDrift, useRepairDnsDrift } from './api.ts';
import { LINE_GROUPS_LOCALES } from './locales/bundle.ts';

const KIND_COLOR = { missing: 'orange', extra: 'red', different: 'gold' } as const;

/** Check DNS for one line group: what its provider holds against what publishing writes, with a repair. */
export const DnsDriftModal = ({ group, onClose }: { group: LineGroupView; onClose: () => void }) => {
  const { t } = useLocales(LINE_GROUPS_LOCALES);
  const feedback = useFeedback();
  const drift = useDnsDrift(group.id);
  const repair = useRepairDnsDrift(group.id);
  const [repairing, setRepairing] = useState(false);
  const result = drift.data;
  const differences = result?.differences ?? [];

  const record = (state: DnsRecordState | null, entry: DnsDifference) =>
    state === null ? (
      '—'
    ) : (
      <Space size={4} wrap>
        <span style={entry.fields.includes('value') ? { fontWeight: 600 } : undefined}>{state.value}</span>
        <Tag color={entry.fields.includes('ttl') ? 'gold' : undefined}>{t('dnsDrift.ttl', { ttl: state.ttl })}</Tag>
        {state.weight !== null && (
          <Tag color={entry.fields.includes('weight') ? 'gold' : undefined}>
            {t('dnsDrift.weight', { weight: state.weight })}
          </Tag>
        )}
      </Space>
    );

  const runRepair = async () => {
    setRepairing(true);
    try {
      const left = await repair();
      if (left.error || left.differences.length > 0) feedback.error(t('dnsDrift.repairLeft'));
      else feedback.success(t('dnsDrift.repaired'));
    } catch {
      // The client showed why.
    } finally {
      setRepairing(false);
    }
  };

  return (
    <Modal
      open
      width={960}
      title={t('dnsDrift.title', { name: group.name })}
      onCancel={onClose}
      footer={
        <Space>
          <Button onClick={() => drift.refetch()} loading={drift.isFetching} disabled={repairing}>
            {t('dnsDrift.recheck')}
          </Button>
          <Popconfirm
            title={t('dnsDrift.confirmRepair', { fqdn: result?.fqdn || group.name })}
            okText={t('lineGroups.confirm.ok')}
            cancelText={t('lineGroups.confirm.cancel')}
            onConfirm={runRepair}
          >
            <Button
              type="primary"
              danger
              loading={repairing}
              disabled={!result?.fqdn || drift.isFetching}
              data-testid="dns-drift-repair"
            >
              {t('dnsDrift.repair')}
            </Button>
          </Popconfirm>
          <Button onClick={onClose}>{t('dnsDrift.close')}</Button>
        </Space>
      }
    >
      <section data-testid="dns-drift">
        {result && (
          <p>
            {result.fqdn
              ? t('dnsDrift.summary', {
                  fqdn: result.fqdn,
                  provider: result.provider,
                  sites: result.sites_checked,
                  time: new Date(result.checked_at).toLocaleString(),
                })
              : t('dnsDrift.unpublished')}
          </p>
        )}
        {result?.error && (
          <Alert
            type="error"
            showIcon
            style={{ marginBottom: 12 }}
            title={result.error}
            data-testid="dns-drift-error"
          />
        )}
        {result && !result.error && differences.length === 0 && (
          <Alert type="success" showIcon style={{ marginBottom: 12 }} title={t('dnsDrift.clean')} />
        )}
        <Table<DnsDifference>
          rowKey={(entry) =>
            [entry.kind, entry.name, entry.type, entry.line, entry.expected?.value, entry.actual?.value].join('|')
          }
          size="small"
          pagination={false}
          data-testid="dns-drift-table"
          loading={drift.isFetching && !result}
          dataSource={differences}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('dnsDrift.empty') }}
          columns={[
            {
              key: 'kind',
              title: t('dnsDrift.column.kind'),
              render: (_, entry) => <Tag color={KIND_COLOR[entry.kind]}>{t(`dnsDrift.kind.${entry.kind}`)}</Tag>,
            },
            { key: 'name', dataIndex: 'name', title: t('dnsDrift.column.name') },
            { key: 'type', dataIndex: 'type', title: t('dnsDrift.column.type') },
            {
              key: 'line',
              dataIndex: 'line',
              title: t('dnsDrift.column.line'),
              render: (line: string) => line || t('dnsDrift.defaultLine'),
            },
            {
              key: 'expected',
              title: t('dnsDrift.column.expected'),
              render: (_, entry) => record(entry.expected, entry),
            },
            { key: 'actual', title: t('dnsDrift.column.actual'), render: (_, entry) => record(entry.actual, entry) },
          ]}
        />
      </section>
    </Modal>
  );
};
