import CheckOutlined from '@ant-design/icons/CheckOutlined';
import CloseOutlined from '@ant-design/icons/CloseOutlined';
import { PACKAGE_FEATURES, type PackageFeature, type PackageFeatureSet } from '@rampart/contracts';
import Space from 'antd/es/space';
import Tag from 'antd/es/tag';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { USER_PACKAGES_LOCALES } from './locales/bundle.ts';

/** The name of each package feature in the page's language (admin form and list, buy page, My packages, site page). */
export const useFeatureNames = () => {
  const { t } = useLocales(USER_PACKAGES_LOCALES);
  return (feature: PackageFeature): string => t(`userPackages.features.${feature}`);
};

/** Whether a package includes it: the text says so, not only the colour. */
export const FeatureMark = ({
  feature,
  allowed,
  testId,
}: {
  feature: PackageFeature;
  allowed: boolean;
  testId: string;
}) => {
  const { t } = useLocales(USER_PACKAGES_LOCALES);
  const name = t(`userPackages.features.${feature}`);
  return (
    <Tag
      color={allowed ? 'green' : 'default'}
      icon={allowed ? <CheckOutlined /> : <CloseOutlined />}
      data-testid={testId}
      data-allowed={allowed}
      aria-label={t(allowed ? 'userPackages.features.included' : 'userPackages.features.excluded', { feature: name })}
      style={allowed ? undefined : { textDecoration: 'line-through' }}
    >
      {name}
    </Tag>
  );
};

/** Every feature of a package, included or not, as tags (My packages, the admin's package list). */
export const PackageFeatureTags = ({ features, testId }: { features: PackageFeatureSet; testId: string }) => (
  <Space size={[4, 4]} wrap data-testid={testId}>
    {PACKAGE_FEATURES.map((feature) => (
      <FeatureMark key={feature} feature={feature} allowed={features[feature]} testId={`${testId}:${feature}`} />
    ))}
  </Space>
);
