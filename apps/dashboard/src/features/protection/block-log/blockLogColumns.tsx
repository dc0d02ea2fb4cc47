import type { BlockKind } from '@rampart/contracts';
import Button from 'antd/es/button';
import Popconfirm from 'antd/es/popconfirm';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import type { TFunction } from 'i18next';
import type { BlockLogEntry } from '../api.ts';
import { knownKind, ruleIds } from '../model/blockLog.ts';
import { wafRuleIds } from '../model/waf.ts';
import { formatTime } from '../shared/time.ts';

const KIND_COLORS: Record<BlockKind, string> = {
  acl: 'purple',
  ban: 'red',
  rate: 'orange',
  challenge: 'blue',
  delay: 'cyan',
  waf: 'magenta',
  hotlink: 'gold',
  urlauth: 'purple',
};

/**
 * The request, who sent it, what stopped it and why; "allow this IP" asks first, and so does "skip
 * these rules" on a WAF entry (its rule ids join the site's WAF exclusions).
 */
export const blockLogColumns = (
  t: TFunction,
  language: string,
  onAllow: (row: BlockLogEntry) => Promise<void>,
  onSkipRules: (row: BlockLogEntry, ids: number[]) => Promise<void>,
): ColumnsType<BlockLogEntry & { key: number }> => [
  {
    key: 'time',
    dataIndex: 'time',
    title: t('protection.blockLog.time'),
    width: 180,
    render: (at: string) => formatTime(at, language),
  },
  {
    key: 'request',
    title: t('protection.blockLog.request'),
    ellipsis: true,
    render: (_value, row) => (
      <Typography.Text title={`${row.method} ${row.host}${row.uri}`}>
        {row.method} {row.host}
        {row.uri}
      </Typography.Text>
    ),
  },
  { key: 'client_ip', dataIndex: 'client_ip', title: t('protection.blockLog.ip'), width: 150 },
  { key: 'status', dataIndex: 'status', title: t('protection.blockLog.status'), width: 80 },
  {
    key: 'kind',
    dataIndex: 'kind',
    title: t('protection.blockLog.kind'),
    width: 120,
    render: (kind: string, row) => {
      const known = knownKind(kind);
      return (
        <Tag color={known && KIND_COLORS[known]}>
          {known ? t(`protection.kind.${known}`) : '?'} / {row.action || '—'}
        </Tag>
      );
    },
  },
  { key: 'rule', title: t('protection.blockLog.rule'), width: 170, render: (_value, row) => ruleIds(row) || '—' },
  { key: 'detail', dataIndex: 'detail', title: t('protection.blockLog.detail'), ellipsis: true },
  {
    key: 'actions',
    title: t('protection.actions'),
    width: 150,
    render: (_value, row) => {
      const wafRules = row.kind === 'waf' ? wafRuleIds(row.detail) : [];
      return (
        <>
          <Popconfirm
            title={t('protection.blockLog.confirmAllow', { ip: row.client_ip, host: row.host })}
            description={t('protection.blockLog.confirmAllowHelp')}
            okText={t('protection.confirm')}
            cancelText={t('protection.cancel')}
            onConfirm={() => onAllow(row).catch(() => undefined)}
          >
            <Button type="link" size="small">
              {t('protection.blockLog.allow')}
            </Button>
          </Popconfirm>
          {wafRules.length > 0 && (
            <Popconfirm
              title={t('protection.blockLog.confirmSkipRules', { rules: wafRules.join(', '), host: row.host })}
              description={t('protection.blockLog.confirmSkipRulesHelp')}
              okText={t('protection.confirm')}
              cancelText={t('protection.cancel')}
              onConfirm={() => onSkipRules(row, wafRules).catch(() => undefined)}
            >
              <Button type="link" size="small">
                {t('protection.blockLog.skipRules')}
              </Button>
            </Popconfirm>
          )}
        </>
      );
    },
  },
];
