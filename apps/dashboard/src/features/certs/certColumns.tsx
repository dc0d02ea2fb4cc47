import type { Cert } from '@rampart/contracts';
import Button from 'antd/es/button';
import Popconfirm from 'antd/es/popconfirm';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import type { TFunction } from 'i18next';
import { NameList } from '../../shared/table/NameList.tsx';
import { ownerColumn } from '../../shared/table/ownerColumn.tsx';
import { CertStatus } from './CertStatus.tsx';
import { daysLeft, expiryState } from './certExpiry.ts';

const EXPIRY_COLORS = { expired: 'red', soon: 'orange', ok: 'green' } as const;

export interface CertActions {
  onDownload: (cert: Cert) => void;
  onDelete: (cert: Cert) => void;
  onReissue: (cert: Cert) => void;
}

const expiry = (t: TFunction, language: string, now: number, notAfter: string | null) => {
  if (notAfter === null) return <span>{t('certs.notIssued')}</span>;
  const state = expiryState(notAfter, now);
  return (
    <span data-testid={`expiry:${state}`}>
      {new Date(notAfter).toLocaleDateString(language)}{' '}
      <Tag color={EXPIRY_COLORS[state]}>
        {state === 'expired' ? t('certs.expired') : t('certs.daysLeft', { count: daysLeft(notAfter, now) })}
      </Tag>
    </span>
  );
};

const deleteButton = (t: TFunction, cert: Cert, inUse: boolean, onDelete: (cert: Cert) => void) => {
  if (inUse || cert.status === 'issuing') {
    return (
      <Tooltip title={inUse ? t('certs.inUse') : t('certs.issuingNoDelete')}>
        <Button type="link" danger size="small" disabled>
          {t('certs.delete')}
        </Button>
      </Tooltip>
    );
  }
  return (
    <Popconfirm
      title={t('certs.confirmDelete', { name: cert.name })}
      okText={t('sites.confirm')}
      cancelText={t('sites.cancel')}
      okButtonProps={{ danger: true }}
      onConfirm={() => onDelete(cert)}
    >
      <Button type="link" danger size="small">
        {t('certs.delete')}
      </Button>
    </Popconfirm>
  );
};

const NO_WRAP = { style: { whiteSpace: 'nowrap' } } as const;

/** Name, source, DNS names, status, issuer, expiry (highlighted under 30 days), sites and actions. */
export const certColumns = (
  t: TFunction,
  language: string,
  now: number,
  usage: ReadonlyMap<number, number>,
  actions: CertActions,
  admin = false,
): ColumnsType<Cert> => [
  { key: 'name', dataIndex: 'name', title: t('certs.column.name'), onCell: () => NO_WRAP },
  // Admins see every user's certificates.
  ...(admin ? [ownerColumn<Cert>(t)] : []),
  {
    key: 'source',
    title: t('certs.column.source'),
    width: 110,
    render: (_value, cert) =>
      cert.source === 'acme' ? (
        <Tooltip title={cert.challenge === 'dns-01' ? t('certs.acme.dns01') : t('certs.acme.http01')}>
          <Tag color="blue">ACME</Tag>
        </Tooltip>
      ) : (
        <Tag>{t('certs.source.upload')}</Tag>
      ),
  },
  {
    key: 'names',
    title: t('certs.column.names'),
    render: (_value, cert) => <NameList names={cert.names.length > 0 ? cert.names : cert.domains} />,
  },
  { key: 'status', title: t('certs.column.status'), width: 280, render: (_value, cert) => <CertStatus cert={cert} /> },
  { key: 'issuer', dataIndex: 'issuer', title: t('certs.column.issuer') },
  {
    key: 'not_after',
    title: t('certs.column.expiry'),
    render: (_value, cert) => expiry(t, language, now, cert.not_after),
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
    width: 260,
    render: (_value, cert) => (
      <>
        {cert.source === 'acme' && (
          <Popconfirm
            title={t('certs.confirmReissue', { name: cert.name })}
            okText={t('sites.confirm')}
            cancelText={t('sites.cancel')}
            onConfirm={() => actions.onReissue(cert)}
            disabled={cert.status === 'issuing'}
          >
            <Button type="link" size="small" disabled={cert.status === 'issuing'}>
              {t('certs.reissue')}
            </Button>
          </Popconfirm>
        )}
        <Button type="link" size="small" disabled={cert.not_after === null} onClick={() => actions.onDownload(cert)}>
          {t('certs.download')}
        </Button>
        {deleteButton(t, cert, (usage.get(cert.id) ?? 0) > 0, actions.onDelete)}
      </>
    ),
  },
];
