import type { Site, SiteGroup } from '@rampart/contracts';
import Button from 'antd/es/button';
import Popconfirm from 'antd/es/popconfirm';
import type { ColumnsType } from 'antd/es/table';
import type { SortOrder } from 'antd/es/table/interface';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import { dateTimeFormat } from '../../../shared/i18n/dateTime.ts';
import { NameList } from '../../../shared/table/NameList.tsx';
import { ownerColumn } from '../../../shared/table/ownerColumn.tsx';
import { waitingDomains } from '../domain-proof/proofState.ts';
import { cnameMissingText, cnameStateOf } from './cnameState.ts';

/** What a row's action links do besides editing. */
export interface SiteRowActions {
  onDelete: (site: Site) => Promise<void>;
  onDnsGuide: (site: Site) => void;
  onCreateRecords: (site: Site) => void;
}

const NO_WRAP = { style: { whiteSpace: 'nowrap' } } as const;

/** No header wraps ("分/组"): the table scrolls sideways before a title breaks. */
const wholeHeaders = <T,>(columns: ColumnsType<T>): ColumnsType<T> =>
  columns.map((column) => ({ ...column, onHeaderCell: () => NO_WRAP }));

const order = (sort: string | undefined, field: string): SortOrder =>
  sort === field ? 'ascend' : sort === `-${field}` ? 'descend' : null;

/**
 * Domains (linking to the edit page), origins, CNAME, group, owner (admins), HTTPS, status and last
 * change. Columns size to their content and no name wraps: the table scrolls sideways instead.
 */
export const siteColumns = (
  t: TFunction,
  language: string,
  groups: readonly SiteGroup[],
  sort: string | undefined,
  actions: SiteRowActions,
  admin = false,
): ColumnsType<Site> =>
  wholeHeaders([
    { key: 'id', dataIndex: 'id', title: 'ID', width: 80, sorter: true, sortOrder: order(sort, 'id') },
    {
      key: 'domain',
      dataIndex: 'domains',
      title: t('sites.column.domains'),
      sorter: true,
      sortOrder: order(sort, 'domain'),
      render: (domains: string[], site) => (
        <>
          <Link to={`/site/list/${site.id}`} data-testid={`site-link:${site.id}`}>
            <NameList names={domains} />
          </Link>
          {waitingDomains(site).length > 0 && (
            <Tag color="orange" style={{ marginInlineStart: 8 }} data-testid={`site-proof-waiting:${site.id}`}>
              {t('sites.proof.waiting')}
            </Tag>
          )}
        </>
      ),
    },
    {
      key: 'origins',
      dataIndex: 'origins',
      title: t('sites.column.origins'),
      render: (origins: Site['origins']) => (
        <span data-testid="site-origins">
          <NameList names={origins.map((origin) => `${origin.address}:${origin.port}`)} />
        </span>
      ),
    },
    {
      key: 'cname',
      dataIndex: 'cname',
      title: 'CNAME',
      onCell: () => NO_WRAP,
      render: (cname: string, site) =>
        cname ? (
          <Typography.Text copyable data-testid="site-cname">
            {cname}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary" data-testid="site-cname-missing">
            {cnameMissingText(t, cnameStateOf(site))}
          </Typography.Text>
        ),
    },
    {
      key: 'group',
      dataIndex: 'group_id',
      title: t('sites.column.group'),
      onCell: () => NO_WRAP,
      render: (groupId: number | null) => groups.find((group) => group.id === groupId)?.name ?? '—',
    },
    {
      key: 'https',
      dataIndex: 'https_listen',
      title: 'HTTPS',
      width: 90,
      render: (https: boolean) => (https ? <Tag color="green">{t('sites.on')}</Tag> : <Tag>{t('sites.off')}</Tag>),
    },
    {
      key: 'enabled',
      dataIndex: 'enabled',
      title: t('sites.column.status'),
      width: 100,
      render: (enabled: boolean) =>
        enabled ? <Tag color="blue">{t('sites.enabled')}</Tag> : <Tag>{t('sites.disabled')}</Tag>,
    },
    // Admins see every user's sites.
    ...(admin ? [ownerColumn<Site>(t)] : []),
    {
      key: 'updated_at',
      dataIndex: 'updated_at',
      title: t('sites.column.updated'),
      width: 190,
      sorter: true,
      sortOrder: order(sort, 'updated_at'),
      onCell: () => NO_WRAP,
      // One formatter per language for every cell, as toLocaleString shows it.
      render: (at: string) => dateTimeFormat(language).format(new Date(at)),
    },
    {
      key: 'actions',
      title: t('sites.column.actions'),
      onCell: () => NO_WRAP,
      render: (_value, site) => (
        <>
          <Link to={`/site/list/${site.id}`}>{t('sites.list.edit')}</Link>
          <Button type="link" size="small" onClick={() => actions.onDnsGuide(site)}>
            {t('sites.guide.action')}
          </Button>
          <Button type="link" size="small" onClick={() => actions.onCreateRecords(site)}>
            {t('dns.records.action')}
          </Button>
          <Popconfirm
            title={t('sites.list.confirmDelete', { domain: site.domains[0] })}
            okText={t('sites.confirm')}
            cancelText={t('sites.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => actions.onDelete(site).catch(() => undefined)}
          >
            <Button type="link" danger size="small">
              {t('sites.batch.delete')}
            </Button>
          </Popconfirm>
        </>
      ),
    },
  ]);
