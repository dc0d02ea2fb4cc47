import CheckCircleTwoTone from '@ant-design/icons/CheckCircleTwoTone';
import CloseCircleTwoTone from '@ant-design/icons/CloseCircleTwoTone';
import type { Site } from '@rampart/contracts';
import Button from 'antd/es/button';
import Modal from 'antd/es/modal/Modal';
import Select from 'antd/es/select';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type DomainSyncResult, useDnsActions, useDnsApis } from './api.ts';

/** Picks one of the user's DNS APIs and creates the CNAME record of every domain of the site. */
export const CnameRecordsModal = ({ site, onClose }: { site: Site | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const dnsApis = useDnsApis(site !== null);
  const actions = useDnsActions();
  const [dnsapiId, setDnsapiId] = useState<number>();
  const [result, setResult] = useState<DomainSyncResult>();
  const [running, setRunning] = useState(false);
  const close = () => {
    setResult(undefined);
    onClose();
  };
  const run = async () => {
    if (!site || !dnsapiId) return;
    setRunning(true);
    try {
      setResult(await actions.createRecords(dnsapiId, site.id));
    } catch {
      // Shown as a popup by the HTTP client.
    } finally {
      setRunning(false);
    }
  };
  return (
    <Modal
      open={site !== null}
      onCancel={close}
      title={t('dns.records.title')}
      destroyOnHidden
      footer={
        <Button type="primary" disabled={!dnsapiId} loading={running} onClick={() => void run()}>
          {t('dns.records.submit')}
        </Button>
      }
    >
      <Select
        aria-label={t('dns.records.dnsApi')}
        placeholder={t('dns.records.dnsApi')}
        style={{ width: '100%', marginBottom: 16 }}
        loading={dnsApis.isPending}
        value={dnsapiId}
        onChange={setDnsapiId}
        notFoundContent={t('dns.records.noDnsApi')}
        options={(dnsApis.data ?? []).map((dnsApi) => ({ value: dnsApi.id, label: dnsApi.name }))}
      />
      {result && (
        <div data-testid="cname-records">
          <p>{t('dns.records.target', { target: result.target })}</p>
          <ul style={{ listStyle: 'none', paddingLeft: 0 }}>
            {result.domains.map((entry) => (
              <li key={entry.domain}>
                {entry.ok ? (
                  <CheckCircleTwoTone twoToneColor="#52c41a" />
                ) : (
                  <CloseCircleTwoTone twoToneColor="#ff4d4f" />
                )}{' '}
                <strong>{entry.domain}</strong>{' '}
                {entry.ok ? t('dns.records.created', { zone: entry.zone ?? '' }) : entry.error}
              </li>
            ))}
          </ul>
        </div>
      )}
    </Modal>
  );
};
