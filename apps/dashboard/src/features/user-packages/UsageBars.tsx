import type { UserPackageView } from '@rampart/contracts';
import Progress from 'antd/es/progress';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { unlimitedWhenZero, usagePercent } from './limits.ts';
import { USER_PACKAGES_LOCALES } from './locales/bundle.ts';

const BAR_KEYS = [
  ['sites', 'max_sites'],
  ['domains', 'max_domains'],
  ['streams', 'max_streams'],
] as const;

/** Sites, domains and streams in use against the package's limits, and its traffic and bandwidth. */
export const UsageBars = ({ userPackage }: { userPackage: UserPackageView }) => {
  const { t } = useLocales(USER_PACKAGES_LOCALES);
  const { used, limits } = userPackage;
  const traffic = unlimitedWhenZero(limits.traffic_gb);
  const bandwidth = unlimitedWhenZero(limits.bandwidth_mbps);
  return (
    <div style={{ width: 230 }} data-testid={`usage:${userPackage.name}`}>
      {BAR_KEYS.map(([usedKey, limitKey]) => {
        const percent = usagePercent(used[usedKey], limits[limitKey]);
        return (
          <div key={usedKey} style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
            <span style={{ width: 56, flex: 'none' }}>{t(`userPackages.limits.${usedKey}`)}</span>
            <Progress
              percent={percent}
              size="small"
              showInfo={false}
              status={percent >= 100 ? 'exception' : 'normal'}
              style={{ flex: 1, margin: 0 }}
            />
            <span style={{ flex: 'none' }} data-testid={`usage-${usedKey}:${userPackage.name}`}>
              {used[usedKey]} / {limits[limitKey]}
            </span>
          </div>
        );
      })}
      <div>
        {t('userPackages.labelled', {
          label: t('userPackages.limits.traffic'),
          value: traffic === null ? t('userPackages.limits.unlimited') : `${traffic} GB`,
        })}
      </div>
      <div>
        {t('userPackages.labelled', {
          label: t('userPackages.limits.bandwidth'),
          value: bandwidth === null ? t('userPackages.limits.unlimited') : `${bandwidth} Mbps`,
        })}
      </div>
    </div>
  );
};
