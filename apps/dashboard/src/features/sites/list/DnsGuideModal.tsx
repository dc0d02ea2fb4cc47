import CheckCircleTwoTone from '@ant-design/icons/CheckCircleTwoTone';
import CloseCircleTwoTone from '@ant-design/icons/CloseCircleTwoTone';
import type { CnameCheck, Site } from '@rampart/contracts';
import { useMutation } from '@tanstack/react-query';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Modal from 'antd/es/modal/Modal';
import Table from 'antd/es/table';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { useHttp } from '../../../shared/http/HttpProvider.tsx';
import { cnameCheckText, cnameMissingText, cnameStateOf } from './cnameState.ts';

type Entry = CnameCheck['domains'][number];

/** "Point your domain here": one CNAME record per domain, and a live check of where each points now. */
export const DnsGuideModal = ({ site, onClose }: { site: Site | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const http = useHttp();
  const check = useMutation({
    mutationFn: (siteId: number) => http.post<CnameCheck>('/v1/cname-check', { site_id: siteId }),
  });
  const close = () => {
    check.reset();
    onClose();
  };
  const target = site?.cname ?? '';
  const answers = new Map<string, Entry>(check.data?.domains.map((entry) => [entry.domain, entry]));
  return (
    <Modal
      open={site !== null}
      onCancel={close}
      title={t('sites.guide.title')}
      width={720}
      destroyOnHidden
      footer={
        target ? (
          <Button
            type="primary"
            loading={check.isPending}
            onClick={() => site && check.mutate(site.id)}
            data-testid="dns-guide-check"
          >
            {t('sites.guide.check')}
          </Button>
        ) : null
      }
    >
      {site && !target && (
        <Alert
          type="info"
          showIcon
          title={cnameMissingText(t, cnameStateOf(site))}
          description={t('sites.guide.noTarget')}
        />
      )}
      {site && target && (
        <div data-testid="dns-guide">
          <p>{t('sites.guide.intro')}</p>
          <p>
            <Typography.Text code copyable data-testid="dns-guide-target">
              {target}
            </Typography.Text>
          </p>
          <Table<string>
            rowKey={(domain) => domain}
            size="small"
            pagination={false}
            dataSource={site.domains}
            scroll={{ x: 'max-content' }}
            columns={[
              { key: 'host', title: t('sites.guide.host'), render: (_value, domain) => domain },
              { key: 'type', title: t('sites.guide.type'), render: () => 'CNAME' },
              { key: 'value', title: t('sites.guide.value'), render: () => target },
              {
                key: 'status',
                title: t('sites.guide.status'),
                render: (_value, domain) => {
                  const entry = answers.get(domain);
                  return (
                    <span data-testid={`dns-guide:${domain}`}>
                      {entry &&
                        (entry.points ? (
                          <CheckCircleTwoTone twoToneColor="#52c41a" />
                        ) : (
                          <CloseCircleTwoTone twoToneColor="#ff4d4f" />
                        ))}{' '}
                      {cnameCheckText(t, entry)}
                    </span>
                  );
                },
              },
            ]}
          />
        </div>
      )}
    </Modal>
  );
};
