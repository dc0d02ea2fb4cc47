import Tag from 'antd/es/tag';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { PACKAGES_LOCALES } from './locales/bundle.ts';

/** The packages an upgrade pack or a coupon applies to, by name; none listed means every package. */
export const PackageNames = ({ ids, names }: { ids: readonly number[]; names: ReadonlyMap<number, string> }) => {
  const { t } = useLocales(PACKAGES_LOCALES);
  if (ids.length === 0) return <Tag>{t('packages.common.allPackages')}</Tag>;
  return ids.map((id) => <Tag key={id}>{names.get(id) ?? `#${id}`}</Tag>);
};
