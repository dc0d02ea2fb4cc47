import type { PackageFeature, SitePackageFeatures } from '@rampart/contracts';
import Alert from 'antd/es/alert';
import ConfigProvider from 'antd/es/config-provider';
import type { ReactNode } from 'react';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { USER_PACKAGES_LOCALES } from './locales/bundle.ts';
import { useFeatureNames } from './PackageFeatures.tsx';

interface SiteFeatureGateProps {
  /** The site's package features (GET /v1/sites/{id}/package-features); undefined while loading. */
  state: SitePackageFeatures | undefined;
  feature: PackageFeature;
  /** Whether the controls below turn only this feature on (a whole tab); otherwise they stay usable. */
  lock?: boolean;
  children?: ReactNode;
}

/**
 * A site page section of a feature the site's package does not include: a notice above it, and its
 * controls disabled so the feature stays off. A site that already uses it (the package dropped it
 * later) keeps its controls, so it can be turned off.
 */
export const SiteFeatureGate = ({ state, feature, lock = true, children }: SiteFeatureGateProps) => {
  const { t } = useLocales(USER_PACKAGES_LOCALES);
  const nameOf = useFeatureNames();
  if (!state?.limited || state.features[feature]) return <>{children}</>;
  const inUse = state.beyond.includes(feature);
  const words = { package: state.package_name ?? '', feature: nameOf(feature) };
  return (
    <>
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 16 }}
        data-testid={`package-feature-notice:${feature}`}
        title={t(inUse ? 'userPackages.features.beyond' : 'userPackages.features.notice', words)}
      />
      <ConfigProvider componentDisabled={lock && !inUse}>{children}</ConfigProvider>
    </>
  );
};

/** The site page's tabs that hold package features, by tab key; `lock`: the tab is that feature alone. */
const TAB_FEATURES: Record<string, { features: readonly PackageFeature[]; lock: boolean }> = {
  https: { features: ['https'], lock: false },
  hotlink: { features: ['hotlink'], lock: true },
  url_auth: { features: ['url_auth'], lock: true },
  error_pages: { features: ['error_pages'], lock: true },
  redirects: { features: ['redirects'], lock: true },
  health_check: { features: ['health_check'], lock: true },
  protection: { features: ['waf', 'geo'], lock: false },
};

/** A tab of the site page with the notices (and locks) of the features its package does not include. */
export const gatedTab = (state: SitePackageFeatures | undefined, key: string, children: ReactNode): ReactNode => {
  const tab = TAB_FEATURES[key];
  if (!tab) return children;
  return tab.features.reduceRight<ReactNode>(
    (inner, feature) => (
      <SiteFeatureGate key={feature} state={state} feature={feature} lock={tab.lock}>
        {inner}
      </SiteFeatureGate>
    ),
    children,
  );
};

/** Whether a switch that turns `feature` on must stay off: the package does not include it and the site does not use it. */
export const featureLocked = (state: SitePackageFeatures | undefined, feature: PackageFeature): boolean =>
  state?.limited === true && !state.features[feature] && !state.beyond.includes(feature);
