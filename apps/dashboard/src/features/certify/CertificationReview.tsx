import type { CertifyState } from '@rampart/contracts';
import Button from 'antd/es/button';
import Popconfirm from 'antd/es/popconfirm';
import Select from 'antd/es/select';
import Table, { type ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { dateTimeFormat } from '../../shared/i18n/dateTime.ts';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { type Certification, useCertifications, useCertifyActions } from './api.ts';
import { CertifyStateTag } from './CertifyStateTag.tsx';
import { CERTIFY_LOCALES } from './locales/bundle.ts';
import { ReviewModal } from './ReviewModal.tsx';

const PAGE_SIZE = 20;

/**
 * The admin's review of certification requests, for /sys/user to embed: every user's (pending first
 * by default) or, with `userId`, one user's. Approving certifies the user; rejecting asks for a reason.
 */
export const CertificationReview = ({ userId }: { userId?: number }) => {
  const { t, i18n } = useLocales(CERTIFY_LOCALES);
  const feedback = useFeedback();
  const [state, setState] = useState<CertifyState | undefined>(userId === undefined ? 'pending' : undefined);
  const [page, setPage] = useState(1);
  const requests = useCertifications({ page, limit: PAGE_SIZE, user_id: userId, state });
  const actions = useCertifyActions();
  const [rejecting, setRejecting] = useState<Certification | null>(null);
  const approve = async (request: Certification) => {
    await actions.review(request.id, { state: 'approved' });
    feedback.success(t('certify.review.approved'));
  };
  const columns: ColumnsType<Certification> = [
    { key: 'account', dataIndex: 'account', title: t('certify.review.account'), render: (value) => value ?? '-' },
    {
      key: 'type',
      dataIndex: 'type',
      title: t('certify.type'),
      render: (value: Certification['type']) => t(`certify.typeName.${value}`),
    },
    { key: 'name', dataIndex: 'name', title: t('certify.name') },
    {
      key: 'id_number',
      dataIndex: 'id_number',
      title: t('certify.idNumber'),
      render: (value: string) => <span style={{ fontFamily: 'monospace' }}>{value}</span>,
    },
    {
      key: 'state',
      dataIndex: 'state',
      title: t('certify.state'),
      render: (value: CertifyState, row) => (
        <>
          <CertifyStateTag state={value} />
          {row.reason && <div style={{ color: '#888' }}>{row.reason}</div>}
        </>
      ),
    },
    {
      key: 'created_at',
      dataIndex: 'created_at',
      title: t('certify.submitted'),
      render: (value: string) => dateTimeFormat(i18n.language).format(new Date(value)),
    },
    {
      key: 'actions',
      title: t('certify.review.actions'),
      render: (_value, row) =>
        row.state === 'pending' && (
          <div style={{ display: 'flex', gap: 8 }}>
            <Popconfirm
              title={t('certify.review.confirmApprove', { account: row.account ?? '' })}
              okText={t('certify.review.approve')}
              cancelText={t('certify.review.cancel')}
              onConfirm={() => approve(row).catch(() => undefined)}
            >
              <Button size="small" type="primary">
                {t('certify.review.approve')}
              </Button>
            </Popconfirm>
            <Button size="small" danger onClick={() => setRejecting(row)}>
              {t('certify.review.reject')}
            </Button>
          </div>
        ),
    },
  ];
  return (
    <div data-testid="certification-review">
      <div style={{ marginBottom: 12 }}>
        <Select<CertifyState | 'all'>
          aria-label={t('certify.state')}
          style={{ width: 160 }}
          value={state ?? 'all'}
          onChange={(value) => {
            setState(value === 'all' ? undefined : value);
            setPage(1);
          }}
          options={[
            { value: 'all', label: t('certify.review.allStates') },
            { value: 'pending', label: t('certify.stateName.pending') },
            { value: 'approved', label: t('certify.stateName.approved') },
            { value: 'rejected', label: t('certify.stateName.rejected') },
          ]}
        />
      </div>
      <Table<Certification>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={requests.data?.list ?? []}
        loading={requests.isFetching}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: requests.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
      />
      <ReviewModal request={rejecting} onClose={() => setRejecting(null)} />
    </div>
  );
};
