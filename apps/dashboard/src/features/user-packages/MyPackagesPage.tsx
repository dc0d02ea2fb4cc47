import ShoppingCartOutlined from '@ant-design/icons/ShoppingCartOutlined';
import type { UserPackageView } from '@rampart/contracts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import Typography from 'antd/es/typography';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { dateTimeFormat } from '../../shared/i18n/dateTime.ts';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { useTotalText } from '../../shared/table/totals.ts';
import { RechargeLink } from '../finance/RechargeLink.tsx';
import {
  useBalance,
  useDiscounts,
  usePackageStanding,
  usePackagesOnSale,
  useUserPackageActions,
  useUserPackages,
} from './api.ts';
import { USER_PACKAGES_LOCALES } from './locales/bundle.ts';
import { formatCents } from './money.ts';
import { PurchaseModal } from './PurchaseModal.tsx';
import { discountPercent, soldTerms, termPriceOf } from './pricing.ts';
import { RenameModal } from './RenameModal.tsx';
import { UpgradeList } from './UpgradeList.tsx';
import { UpgradeModal } from './UpgradeModal.tsx';
import { userPackageColumns } from './userPackageColumns.tsx';

type Dialog = { kind: 'rename' | 'renew' | 'upgrade'; userPackage: UserPackageView };

/** Spec §2 /user-package/my: the user's packages with usage, auto-renew, rename, renewal and upgrades. */
export const Component = () => {
  const { t, i18n } = useLocales(USER_PACKAGES_LOCALES);
  const feedback = useFeedback();
  const navigate = useNavigate();
  const [paging, setPaging] = useState({ page: 1, limit: 10 });
  const userPackages = useUserPackages(paging.page, paging.limit);
  const onSale = usePackagesOnSale();
  const discounts = useDiscounts();
  const balance = useBalance();
  const standing = usePackageStanding();
  const totalText = useTotalText();
  const actions = useUserPackageActions();
  const [dialog, setDialog] = useState<Dialog>();
  const [saving, setSaving] = useState<ReadonlySet<number>>(new Set());
  const format = dateTimeFormat(i18n.language);
  const packageOf = (row: UserPackageView) => onSale.data?.find((pkg) => pkg.id === row.package_id);

  const setAutoRenew = async (row: UserPackageView, on: boolean) => {
    setSaving((current) => new Set(current).add(row.id));
    try {
      await actions.update(row.id, { auto_renew: on });
      feedback.success(on ? t('userPackages.my.autoRenewOn') : t('userPackages.my.autoRenewOff'));
    } catch {
      // The client showed why.
    } finally {
      setSaving((current) => {
        const next = new Set(current);
        next.delete(row.id);
        return next;
      });
    }
  };

  const renewing = dialog?.kind === 'renew' ? dialog.userPackage : undefined;
  const renewPackage = renewing && packageOf(renewing);
  const unlimited = standing.data?.unlimited === true;
  const needsPackage = standing.data?.required === true && standing.data.active === 0 && !unlimited;
  const emptyText = unlimited ? t('userPackages.my.unlimited') : t('userPackages.my.empty');

  return (
    <section data-testid="user-package-my-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', marginBottom: 16 }}>
        <Space size={12}>
          <Typography.Text>
            {t('userPackages.balanceLabel')}{' '}
            <Typography.Text strong data-testid="user-balance">
              {balance.data === undefined ? '—' : formatCents(balance.data)}
            </Typography.Text>
          </Typography.Text>
          <RechargeLink />
        </Space>
        <Button type="primary" icon={<ShoppingCartOutlined />} onClick={() => navigate('/user-package/buy')}>
          {t('userPackages.my.buyMore')}
        </Button>
      </div>
      {needsPackage && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="package-required"
          title={t('userPackages.my.required')}
          action={
            <Button
              size="small"
              type="primary"
              onClick={() => navigate('/user-package/buy')}
              data-testid="package-required-buy"
            >
              {t('userPackages.my.buyFirst')}
            </Button>
          }
        />
      )}
      <Table<UserPackageView>
        rowKey="id"
        size="middle"
        data-testid="user-package-table"
        loading={userPackages.isFetching && !userPackages.data}
        dataSource={userPackages.data?.list ?? []}
        locale={{ emptyText: <span data-testid="user-package-empty">{emptyText}</span> }}
        scroll={{ x: 'max-content' }}
        expandable={{
          expandedRowRender: (row) => <UpgradeList userPackage={row} />,
          columnTitle: <span style={{ whiteSpace: 'nowrap' }}>{t('userPackages.my.column.upgrades')}</span>,
        }}
        pagination={{
          current: paging.page,
          pageSize: paging.limit,
          total: userPackages.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: totalText,
          onChange: (page, limit) => setPaging({ page, limit }),
        }}
        columns={userPackageColumns(t, (iso) => format.format(new Date(iso)), {
          rename: (userPackage) => setDialog({ kind: 'rename', userPackage }),
          renew: (userPackage) => setDialog({ kind: 'renew', userPackage }),
          upgrade: (userPackage) => setDialog({ kind: 'upgrade', userPackage }),
          setAutoRenew: (userPackage, on) => void setAutoRenew(userPackage, on),
          saving,
          renewable: (userPackage) => packageOf(userPackage) !== undefined,
        })}
      />
      {dialog?.kind === 'rename' && (
        <RenameModal userPackage={dialog.userPackage} onClose={() => setDialog(undefined)} />
      )}
      {dialog?.kind === 'upgrade' && (
        <UpgradeModal userPackage={dialog.userPackage} onClose={() => setDialog(undefined)} />
      )}
      {renewing && renewPackage && (
        <PurchaseModal
          title={t('userPackages.renew.title', { name: renewing.name })}
          payText={t('userPackages.renew.pay')}
          terms={soldTerms(renewPackage).map((term) => ({
            term,
            price: termPriceOf(renewPackage, term) ?? 0,
            percent: discountPercent(discounts.data ?? [], renewPackage.id, term),
          }))}
          initialTerm={soldTerms(renewPackage).find((term) => term === renewing.term)}
          quote={(draft, options) => actions.quoteRenew(renewing.id, draft, options)}
          pay={(draft, options) => actions.renew(renewing.id, draft, options)}
          onClose={() => setDialog(undefined)}
          onPaid={() => setDialog(undefined)}
        />
      )}
    </section>
  );
};
