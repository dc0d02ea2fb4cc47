import ArrowLeftOutlined from '@ant-design/icons/ArrowLeftOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { LINE_WEIGHT } from '@rampart/contracts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import InputNumber from 'antd/es/input-number';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import Switch from 'antd/es/switch';
import Table from 'antd/es/table';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { useAllNodes, useLineGroup, useLineGroupActions, useLines } from './api.ts';
import { lineName } from './lineName.ts';
import { LINE_GROUPS_LOCALES } from './locales/bundle.ts';
import { newKey, type RecordDraft, recordProblem, recordsBody } from './recordDraft.ts';

/** Spec §2 /node/line-group/line/{id} (set resolution): per line, node IPs with weights and backups. */
export const Component = () => {
  const { t, i18n } = useLocales(LINE_GROUPS_LOCALES);
  const feedback = useFeedback();
  const navigate = useNavigate();
  const id = Number(useParams().id);
  const group = useLineGroup(id);
  const lines = useLines();
  const nodes = useAllNodes();
  const actions = useLineGroupActions();
  const [rows, setRows] = useState<RecordDraft[] | null>(null);
  const [adding, setAdding] = useState<number>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (group.data && rows === null) setRows(group.data.records.map((record) => ({ ...record, key: newKey() })));
  }, [group.data, rows]);

  const allLines = lines.data ?? [];
  const current = rows ?? [];
  const lineIds = [...new Set(current.map((row) => row.line_id))];
  const ipOptions = (nodes.data ?? []).flatMap((node) =>
    node.ips.map((ip) => ({ value: ip, label: `${ip} (${node.name})` })),
  );
  const change = (key: number, patch: Partial<RecordDraft>) =>
    setRows(current.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  const addRow = (lineId: number) =>
    setRows([...current, { key: newKey(), line_id: lineId, ip: '', weight: LINE_WEIGHT.default, backup: false }]);

  const save = async () => {
    const problem = recordProblem(current);
    if (problem) {
      feedback.error(t(problem.key, problem.values ?? {}));
      return;
    }
    setSaving(true);
    try {
      const saved = await actions.updateGroup(id, { records: recordsBody(current) });
      setRows(saved.records.map((record) => ({ ...record, key: newKey() })));
      if (saved.publish_error) feedback.error(t('lineGroups.records.publishError', { error: saved.publish_error }));
      else feedback.success(t('lineGroups.records.saved'));
    } catch {
      // The client showed why.
    } finally {
      setSaving(false);
    }
  };

  const name = (lineId: number) => lineName(allLines, lineId, i18n.language);
  const codeOf = (lineId: number) => allLines.find((line) => line.id === lineId)?.code ?? String(lineId);

  return (
    <section data-testid="line-records-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <Space style={{ marginBottom: 16 }} wrap>
        <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/node/line-group')}>
          {t('lineGroups.records.back')}
        </Button>
        <strong>{group.data ? t('lineGroups.records.title', { name: group.data.name }) : ''}</strong>
      </Space>
      {group.data && (
        <Alert
          style={{ marginBottom: 16 }}
          type={group.data.fqdn ? 'info' : 'warning'}
          title={
            group.data.fqdn ? t('lineGroups.records.fqdn', { fqdn: group.data.fqdn }) : t('lineGroups.records.noFqdn')
          }
          description={t('lineGroups.records.backupHelp')}
        />
      )}
      <Space style={{ marginBottom: 16 }}>
        <Select<number>
          style={{ width: 260 }}
          aria-label={t('lineGroups.records.addLine')}
          value={adding}
          onChange={setAdding}
          options={allLines
            .filter((line) => !lineIds.includes(line.id))
            .map((line) => ({ value: line.id, label: name(line.id) }))}
        />
        <Button
          icon={<PlusOutlined />}
          disabled={adding === undefined}
          onClick={() => {
            if (adding === undefined) return;
            addRow(adding);
            setAdding(undefined);
          }}
        >
          {t('lineGroups.records.addLine')}
        </Button>
      </Space>
      {lineIds.length === 0 && <p>{t('lineGroups.records.empty')}</p>}
      {lineIds.map((lineId) => (
        <Card
          key={lineId}
          size="small"
          style={{ marginBottom: 16 }}
          title={name(lineId)}
          data-testid={`line-card:${codeOf(lineId)}`}
          extra={
            <Space>
              <Button size="small" icon={<PlusOutlined />} onClick={() => addRow(lineId)}>
                {t('lineGroups.records.addIp')}
              </Button>
              <Button size="small" danger onClick={() => setRows(current.filter((row) => row.line_id !== lineId))}>
                {t('lineGroups.records.removeLine')}
              </Button>
            </Space>
          }
        >
          <Table<RecordDraft>
            rowKey="key"
            size="small"
            pagination={false}
            dataSource={current.filter((row) => row.line_id === lineId)}
            columns={[
              {
                key: 'ip',
                title: t('lineGroups.records.ip'),
                render: (_, row, index) => (
                  <Select<string>
                    style={{ width: 300 }}
                    showSearch
                    placeholder={t('lineGroups.records.ipPlaceholder')}
                    aria-label={`${t('lineGroups.records.ip')} ${codeOf(lineId)} ${index + 1}`}
                    value={row.ip || undefined}
                    onChange={(ip) => change(row.key, { ip })}
                    options={ipOptions}
                  />
                ),
              },
              {
                key: 'weight',
                title: t('lineGroups.records.weight'),
                render: (_, row, index) => (
                  <InputNumber<number>
                    min={LINE_WEIGHT.min}
                    max={LINE_WEIGHT.max}
                    precision={0}
                    aria-label={`${t('lineGroups.records.weight')} ${codeOf(lineId)} ${index + 1}`}
                    value={row.weight}
                    onChange={(weight) => change(row.key, { weight })}
                  />
                ),
              },
              {
                key: 'backup',
                title: t('lineGroups.records.backup'),
                render: (_, row, index) => (
                  <Switch
                    aria-label={`${t('lineGroups.records.backup')} ${codeOf(lineId)} ${index + 1}`}
                    checked={row.backup}
                    onChange={(backup) => change(row.key, { backup })}
                  />
                ),
              },
              {
                key: 'remove',
                title: '',
                render: (_, row) => (
                  <Button
                    type="link"
                    danger
                    size="small"
                    onClick={() => setRows(current.filter((entry) => entry.key !== row.key))}
                  >
                    {t('lineGroups.records.remove')}
                  </Button>
                ),
              },
            ]}
          />
        </Card>
      ))}
      <Button type="primary" loading={saving} onClick={save} data-testid="line-records-save">
        {t('lineGroups.records.save')}
      </Button>
    </section>
  );
};
