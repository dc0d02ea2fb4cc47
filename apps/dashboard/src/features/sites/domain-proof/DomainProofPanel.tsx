import type { DomainProof, Site } from '@rampart/contracts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import type { ColumnsType } from 'antd/es/table';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { useDomainProofCheck } from './api.ts';
import { waitingDomains } from './proofState.ts';

const NO_WRAP = { style: { whiteSpace: 'nowrap' } } as const;

/** Short headers such as 类型 stay on one line. */
const wholeHeaders = (columns: ColumnsType<DomainProof>): ColumnsType<DomainProof> =>
  columns.map((column) => ({ ...column, onHeaderCell: () => NO_WRAP }));

/** A domain's proof state as a tag: the list and the edit page show the same one. */
export const ProofTag = ({ proof }: { proof: Pick<DomainProof, 'state'> }) => {
  const { t } = useTranslation();
  return proof.state === 'proved' ? (
    <Tag color="green" data-testid="domain-proof-proved">
      {t('sites.proof.proved')}
    </Tag>
  ) : (
    <Tag color="orange" data-testid="domain-proof-waiting">
      {t('sites.proof.waiting')}
    </Tag>
  );
};

/**
 * While the operator requires proof of domain ownership and a domain of the site waits for it: the
 * TXT record to create for each (or the CNAME alternative), and a check on demand.
 */
export const DomainProofPanel = ({ site }: { site: Site }) => {
  const { t } = useTranslation();
  const check = useDomainProofCheck(site.id);
  if (waitingDomains(site).length === 0) return null;
  const proofs = site.domain_proofs ?? [];
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      data-testid="domain-proof-panel"
      title={t('sites.proof.title')}
      description={
        <>
          <p>{t('sites.proof.intro')}</p>
          <Table<DomainProof>
            rowKey="domain"
            size="small"
            pagination={false}
            dataSource={proofs}
            columns={wholeHeaders([
              { key: 'domain', dataIndex: 'domain', title: t('sites.proof.domain') },
              {
                key: 'state',
                title: t('sites.proof.state'),
                render: (_value, proof) => <ProofTag proof={proof} />,
              },
              { key: 'type', title: t('sites.proof.type'), render: () => 'TXT' },
              {
                key: 'name',
                dataIndex: 'record_name',
                title: t('sites.proof.name'),
                render: (name: string) => (
                  <Typography.Text copyable data-testid="domain-proof-name">
                    {name}
                  </Typography.Text>
                ),
              },
              {
                key: 'token',
                dataIndex: 'token',
                title: t('sites.proof.value'),
                render: (token: string) =>
                  token ? (
                    <Typography.Text copyable code data-testid="domain-proof-token">
                      {token}
                    </Typography.Text>
                  ) : (
                    <Typography.Text type="secondary">{t('sites.proof.ownerOnly')}</Typography.Text>
                  ),
              },
              {
                key: 'reason',
                title: t('sites.proof.lastCheck'),
                render: (_value, proof) =>
                  proof.state === 'proved' ? null : (
                    <Typography.Text type="secondary" data-testid="domain-proof-reason">
                      {t(`sites.proof.reason.${proof.reason_code || 'unchecked'}`)}
                    </Typography.Text>
                  ),
              },
            ])}
          />
          <p style={{ marginTop: 12 }}>
            {site.cname ? (
              <>
                {t('sites.proof.cname')}{' '}
                <Typography.Text copyable code>
                  {site.cname}
                </Typography.Text>
              </>
            ) : (
              t('sites.proof.cnameLater')
            )}
          </p>
          <Button loading={check.isPending} onClick={() => check.mutate()} data-testid="domain-proof-check">
            {t('sites.proof.check')}
          </Button>
        </>
      }
    />
  );
};
