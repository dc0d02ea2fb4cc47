import type { PackageAttachResult, UserPackageStanding } from '@rampart/contracts';
import type { TFunction } from 'i18next';

/** What the master counted against a bought package, as far as its answer says (a renewal says nothing). */
type PurchaseAttachment = Partial<PackageAttachResult>;

const isAttachment = (value: unknown): value is PurchaseAttachment =>
  typeof value === 'object' && value !== null && ('attached' in value || 'not_attached' in value);

/**
 * The success message of a purchase: paid, then what was counted against the new package and the
 * names of what did not fit in it.
 */
export const purchaseText = (t: TFunction, answer: unknown): string => {
  const parts = [t('userPackages.purchase.paid')];
  if (!isAttachment(answer)) return parts[0] ?? '';
  const sites = answer.attached?.sites ?? 0;
  const streams = answer.attached?.streams ?? 0;
  const counted = [
    ...(sites > 0 ? [t('userPackages.purchase.sites', { count: sites })] : []),
    ...(streams > 0 ? [t('userPackages.purchase.streams', { count: streams })] : []),
  ];
  const list = t('userPackages.purchase.listSeparator');
  if (counted.length > 0) parts.push(t('userPackages.purchase.attached', { what: counted.join(list) }));
  const left = answer.not_attached;
  const leftOut = [
    ...(left?.sites.length ? [t('userPackages.purchase.sitesNamed', { names: left.sites.join(list) })] : []),
    ...(left?.streams.length ? [t('userPackages.purchase.streamsNamed', { names: left.streams.join(list) })] : []),
  ];
  if (leftOut.length > 0)
    parts.push(
      t('userPackages.purchase.notAttached', { what: leftOut.join(t('userPackages.purchase.groupSeparator')) }),
    );
  return parts.reduce((done, more) => t('userPackages.purchase.sentences', { done, more }));
};

/**
 * The buy page's note when sites or streams have no package and the customer has no active one:
 * the package bought now counts them. Undefined when there is nothing to say.
 */
export const unattachedText = (
  t: TFunction,
  standing: Pick<UserPackageStanding, 'active' | 'unattached'> | undefined,
): string | undefined => {
  if (!standing || standing.active > 0) return undefined;
  const { sites, streams } = standing.unattached;
  const what = [
    ...(sites > 0 ? [t('userPackages.purchase.sites', { count: sites })] : []),
    ...(streams > 0 ? [t('userPackages.purchase.streams', { count: streams })] : []),
  ];
  return what.length > 0
    ? t('userPackages.buy.unattached', { what: what.join(t('userPackages.purchase.listSeparator')) })
    : undefined;
};
