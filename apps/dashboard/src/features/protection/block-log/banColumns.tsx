import Button from 'antd/es/button';
import Popconfirm from 'antd/es/popconfirm';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import type { TFunction } from 'i18next';
import type { Ban } from '../api.ts';
import { formatTime } from '../shared/time.ts';

const siteText = (t: TFunction, siteId: number) => (siteId === 0 ? t('protection.allSites') : `#${siteId}`);

/** What set the ban: by hand, or which rule of which group on which node. */
const sourceText = (t: TFunction, ban: Ban) =>
  ban.source === 'manual'
    ? t('protection.bans.manual')
    : t('protection.bans.byRule', { group: ban.group_id, match: ban.match_id, filter: ban.filter_id });

const common = (t: TFunction, language: string): ColumnsType<Ban> => [
  { key: 'cidr', dataIndex: 'cidr', title: t('protection.bans.cidr') },
  {
    key: 'site',
    dataIndex: 'site_id',
    title: t('protection.bans.site'),
    width: 110,
    render: (id: number) => siteText(t, id),
  },
  {
    key: 'source',
    title: t('protection.bans.source'),
    width: 200,
    render: (_value, ban) => <Tag>{sourceText(t, ban)}</Tag>,
  },
  { key: 'reason', dataIndex: 'reason', title: t('protection.bans.reason'), ellipsis: true },
  {
    key: 'created_at',
    dataIndex: 'created_at',
    title: t('protection.bans.since'),
    width: 180,
    render: (at: string) => formatTime(at, language),
  },
  {
    key: 'expires_at',
    dataIndex: 'expires_at',
    title: t('protection.bans.until'),
    width: 180,
    render: (at: string) => formatTime(at, language),
  },
];

export const banColumns = (t: TFunction, language: string, onUnban: (ban: Ban) => Promise<void>): ColumnsType<Ban> => [
  ...common(t, language),
  {
    key: 'actions',
    title: t('protection.actions'),
    width: 100,
    render: (_value, ban) => (
      <Popconfirm
        title={t('protection.bans.confirmUnban', { cidr: ban.cidr })}
        okText={t('protection.confirm')}
        cancelText={t('protection.cancel')}
        onConfirm={() => onUnban(ban).catch(() => undefined)}
      >
        <Button type="link" size="small">
          {t('protection.bans.unban')}
        </Button>
      </Popconfirm>
    ),
  },
];

export const banHistoryColumns = (t: TFunction, language: string): ColumnsType<Ban> => [
  ...common(t, language),
  {
    key: 'lifted_at',
    dataIndex: 'lifted_at',
    title: t('protection.bans.lifted'),
    width: 180,
    render: (at: string | null) => formatTime(at, language),
  },
];
