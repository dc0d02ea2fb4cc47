import type { UpgradeView, UserPackageView } from '@rampart/contracts';
import Table from 'antd/es/table';
import { dateTimeFormat } from '../../shared/i18n/dateTime.ts';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { useUpgrades } from './api.ts';
import { ExtendPacks } from './ExtendPacks.tsx';
import { USER_PACKAGES_LOCALES } from './locales/bundle.ts';
import { addsText } from './upgradeText.ts';

/** The upgrade packs on one user package, for its expanded row, with the control that carries them to its end. */
export const UpgradeList = ({ userPackage }: { userPackage: UserPackageView }) => {
  const userPackageId = userPackage.id;
  const { t, i18n } = useLocales(USER_PACKAGES_LOCALES);
  const upgrades = useUpgrades(userPackageId);
  const format = dateTimeFormat(i18n.language);
  const now = Date.now();
  return (
    <>
      <ExtendPacks userPackage={userPackage} upgrades={upgrades.data ?? []} />
      <Table<UpgradeView>
        rowKey="id"
        size="small"
        data-testid={`upgrade-list:${userPackageId}`}
        loading={upgrades.isPending}
        dataSource={upgrades.data ?? []}
        pagination={false}
        locale={{ emptyText: t('userPackages.upgrades.empty') }}
        columns={[
          { key: 'name', dataIndex: 'name', title: t('userPackages.upgrades.name') },
          {
            key: 'adds',
            title: t('userPackages.upgrades.adds'),
            render: (_, upgrade) => addsText(upgrade.kind, upgrade.adds),
          },
          { key: 'amount', dataIndex: 'amount', title: t('userPackages.upgrades.packs') },
          {
            key: 'end',
            dataIndex: 'end_at',
            title: t('userPackages.upgrades.end'),
            render: (end: string) =>
              Date.parse(end) > now
                ? format.format(new Date(end))
                : t('userPackages.upgrades.endedAt', { time: format.format(new Date(end)) }),
          },
        ]}
      />
    </>
  );
};
