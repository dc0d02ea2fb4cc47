import type { Cert } from '@rampart/contracts';
import Button from 'antd/es/button';
import Popconfirm from 'antd/es/popconfirm';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import type { TFunction } from 'i18next';
import { daysLeft, expiryState } from './certExpiry.ts';

const EXPIRY_COLORS = { expired: 'red', soon: 'orange', ok: 'green' } as const;

/** Name, DNS names, issuer, expiry (highlighted under 30 days) and delete. */
export const certColumns = (
  t: TFunction,
  language: string,
  now: number,
  usage: ReadonlyMap<number, number>,
  actions: { onDownload: (cert: Cert) => void; onDelete: (cert: Cert) => void },
): ColumnsType<Cert> => [
  { key: 'name', dataIndex: 'name', title: t('certs.column.name'), ellipsis: true },
  {
    key: 'names',
    dataIndex: 'names',
    title: t('certs.column.names'),
    render: (names: string[]) => names.join(', '),
  },
  { key: 'issuer', dataIndex: 'issuer', title: t('certs.column.issuer'), ellipsis: true },
  {
    key: 'not_after',
    dataIndex: 'not_after',
    title: t('certs.column.expiry'),
    render: (notAfter: string) => {
      const state = expiryState(notAfter, now);
      return (
        <span data-testid={`expiry:${state}`}>
          {new Date(notAfter).toLocaleDateString(language)}{' '}
          <Tag color={EXPIRY_COLORS[state]}>
            {state === 'expired' ? t('certs.expired') : t('certs.daysLeft', { count: daysLeft(notAfter, now) })}
          </Tag>
        </span>
      );
    },
  },
  {
    key: 'sites',
    title: t('certs.column.sites'),
    width: 110,
    render: (_value, cert) => <span data-testid={`cert-sites:${cert.id}`}>{usage.get(cert.id) ?? '…'}</span>,
  },
  {
    key: 'actions',
    title: t('certs.column.actions'),
    width: 220,
    render: (_value, cert) => {
      const inUse = (usage.get(cert.id) ?? 0) > 0;
      return (
        <>
          <Button type="link" size="small" onClick={() => actions.onDownload(cert)}>
            {t('certs.download')}
          </Button>
          {inUse ? (
            <Tooltip title={t('certs.inUse')}>
              <Button type="link" danger size="small" disabled>
                {t('certs.delete')}
              </Button>
            </Tooltip>
          ) : (
            <Popconfirm
              title={t('certs.confirmDelete', { name: cert.name })}
              okText={t('sites.confirm')}
              cancelText={t('sites.cancel')}
              okButtonProps={{ danger: true }}
              onConfirm={() => actions.onDelete(cert)}
            >
              <Button type="link" danger size="small">
                {t('certs.delete')}
              </Button>
            </Popconfirm>
          )}
        </>
      );
    },
  },
];
