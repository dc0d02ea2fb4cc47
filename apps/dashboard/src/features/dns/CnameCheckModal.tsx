import CheckCircleTwoTone from '@ant-design/icons/CheckCircleTwoTone';
import CloseCircleTwoTone from '@ant-design/icons/CloseCircleTwoTone';
import type { Site } from '@rampart/contracts';
import { useQuery } from '@tanstack/react-query';
import Alert from 'antd/es/alert';
import Modal from 'antd/es/modal/Modal';
import Spin from 'antd/es/spin';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../shared/http/apiError.ts';
import { useDnsActions } from './api.ts';

/** POST /v1/cname-check for one site: the target and, per domain, whether it points there and why not. */
export const CnameCheckModal = ({ site, onClose }: { site: Site | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const actions = useDnsActions();
  const check = useQuery({
    queryKey: ['cname-check', site?.id],
    enabled: site !== null,
    gcTime: 0,
    retry: false,
    // The failure (no CNAME domain yet) is the modal's content, not a popup.
    queryFn: () => actions.checkCname(site?.id ?? 0, { onError: () => undefined }),
  });
  return (
    <Modal open={site !== null} onCancel={onClose} footer={null} title={t('dns.check.title')} destroyOnHidden>
      <div data-testid="cname-check">
        {check.isFetching && <Spin />}
        {!check.isFetching && check.error && (
          <Alert type="warning" title={isApiError(check.error) ? check.error.message : String(check.error)} />
        )}
        {!check.isFetching && check.data && (
          <>
            <p>
              {t('dns.check.target')} <Typography.Text copyable>{check.data.target}</Typography.Text>
            </p>
            <ul style={{ listStyle: 'none', paddingLeft: 0 }}>
              {check.data.domains.map((entry) => (
                <li key={entry.domain} data-testid={`cname-check:${entry.domain}`}>
                  {entry.points ? (
                    <CheckCircleTwoTone twoToneColor="#52c41a" />
                  ) : (
                    <CloseCircleTwoTone twoToneColor="#ff4d4f" />
                  )}{' '}
                  <strong>{entry.domain}</strong> {entry.points ? t('dns.check.points') : entry.reason}
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </Modal>
  );
};
