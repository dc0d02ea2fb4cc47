import type { DnsApi } from '@rampart/contracts';
import Button from 'antd/es/button';
import Modal from 'antd/es/modal/Modal';
import Popconfirm from 'antd/es/popconfirm';
import Table from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useDnsActions, useDnsApis } from './api.ts';
import { DnsApiForm } from './DnsApiForm.tsx';

/** The user's DNS provider accounts: add, rename (or replace the key) and delete. */
export const DnsApiModal = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const { t, i18n } = useTranslation();
  const feedback = useFeedback();
  const dnsApis = useDnsApis(open);
  const actions = useDnsActions();
  // `null`: adding one; a DNS API: editing it; undefined: the list.
  const [editing, setEditing] = useState<DnsApi | null>();
  const remove = async (dnsApi: DnsApi) => {
    await actions.remove(dnsApi.id);
    feedback.success(t('dns.api.deleted'));
  };
  return (
    <Modal open={open} onCancel={onClose} footer={null} title={t('dns.api.title')} width={720} destroyOnHidden>
      {editing !== undefined ? (
        <DnsApiForm dnsApi={editing} onDone={() => setEditing(undefined)} />
      ) : (
        <>
          <Button type="primary" style={{ marginBottom: 12 }} onClick={() => setEditing(null)}>
            {t('dns.api.add')}
          </Button>
          <Table<DnsApi>
            rowKey="id"
            size="small"
            pagination={false}
            loading={dnsApis.isFetching}
            dataSource={dnsApis.data ?? []}
            columns={[
              { key: 'name', dataIndex: 'name', title: t('dns.api.name') },
              {
                key: 'provider',
                dataIndex: 'provider',
                title: t('dns.api.provider'),
                render: (provider: string) => t(`dns.api.providerName.${provider}`, { defaultValue: provider }),
              },
              {
                key: 'updated_at',
                dataIndex: 'updated_at',
                title: t('dns.api.updated'),
                render: (at: string) => new Date(at).toLocaleString(i18n.language),
              },
              {
                key: 'actions',
                title: t('dns.api.actions'),
                render: (_value, dnsApi) => (
                  <>
                    <Button type="link" size="small" onClick={() => setEditing(dnsApi)}>
                      {t('dns.api.edit')}
                    </Button>
                    <Popconfirm
                      title={t('dns.api.confirmDelete', { name: dnsApi.name })}
                      okText={t('sites.confirm')}
                      cancelText={t('sites.cancel')}
                      okButtonProps={{ danger: true }}
                      onConfirm={() => remove(dnsApi).catch(() => undefined)}
                    >
                      <Button type="link" danger size="small">
                        {t('dns.api.delete')}
                      </Button>
                    </Popconfirm>
                  </>
                ),
              },
            ]}
          />
        </>
      )}
    </Modal>
  );
};
