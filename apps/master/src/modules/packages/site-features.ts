import type { PackageFeature, PackageFeatureSet, SitePackageFeatures, SiteSettings } from '@rampart/contracts';
import { AppError } from '../../errors.ts';
import type { Db } from './catalogue.repository.ts';
import {
  type ConditionLike,
  FEATURE_USES,
  featureSet,
  featuresUsed,
  featureText,
  forbiddenList,
} from './package-features.ts';
import { packageLimitedAccount } from './package-room.ts';

/**
 * Package features on the save paths of a site (sites.service.ts), when sites join a package
 * (package-attach.ts) and when an ACL is saved (checkAclFeatures). A site is limited by the package
 * it counts against; a site in no package, and every site of an operator or a package-exempt account,
 * is not (as with `package_required`). Only turning a feature on is refused: a site that already
 * uses a feature its package no longer includes keeps it, and saving its other settings works.
 */

export interface FeatureLimit {
  userPackageId: number;
  /** The user package's name, as the customer sees it in "My packages". */
  packageName: string;
  allowed: PackageFeatureSet;
}

/** The package limiting sites of `userId` in user package `userPackageId`, or null when nothing limits them. */
export async function featureLimitOf(
  db: Db,
  userId: number,
  userPackageId: number | null,
): Promise<FeatureLimit | null> {
  if (userPackageId === null) return null;
  if (!(await packageLimitedAccount(db, userId)).limited) return null;
  const row = await db
    .selectFrom('user_packages')
    .innerJoin('packages', 'packages.id', 'user_packages.package_id')
    .select(['user_packages.name', 'packages.forbidden_features'])
    .where('user_packages.id', '=', userPackageId)
    .executeTakeFirst();
  if (!row) return null;
  return { userPackageId, packageName: row.name, allowed: featureSet(forbiddenList(row.forbidden_features)) };
}

/**
 * The protection conditions a site runs: its ACL entries (none for a site not saved yet) and the
 * matches of the rule groups it chose (not the system default it falls back to, which is the operator's).
 */
export async function siteConditions(
  db: Db,
  siteId: number | null,
  protection: SiteSettings['protection'],
): Promise<ConditionLike[]> {
  const groups = [protection?.rule_group_id, protection?.attack_rule_group_id].filter(
    (id): id is number => typeof id === 'number',
  );
  const [matches, acls] = await Promise.all([
    groups.length === 0
      ? []
      : db
          .selectFrom('cc_rule_lines')
          .innerJoin('cc_matches', 'cc_matches.id', 'cc_rule_lines.match_id')
          .select('cc_matches.conditions')
          .where('cc_rule_lines.group_id', 'in', groups)
          .execute(),
    siteId === null ? [] : db.selectFrom('acls').select('entries').where('site_id', '=', siteId).execute(),
  ]);
  return [
    ...matches.flatMap((row) => JSON.parse(row.conditions) as ConditionLike[]),
    ...acls.flatMap((row) =>
      (JSON.parse(row.entries) as { condition: ConditionLike }[]).map((entry) => entry.condition),
    ),
  ];
}

/** 403 package_feature naming the first field, with every refused field and feature in the params. */
export function featureRefusal(limit: FeatureLimit, features: readonly PackageFeature[]): AppError {
  const [first = 'https', ...rest] = features;
  const also = rest.map((feature) => `${FEATURE_USES[feature].field} (${featureText(feature)})`);
  return new AppError(
    'package_feature',
    `${FEATURE_USES[first].field}: package ${limit.packageName} does not include ${featureText(first)}` +
      (also.length > 0 ? `, nor ${also.join(', ')}` : ''),
    {
      field: FEATURE_USES[first].field,
      feature: first,
      package: limit.packageName,
      fields: features.map((feature) => FEATURE_USES[feature].field).join(','),
      features: features.join(','),
    },
  );
}

/**
 * A new site in user package `userPackageId` (inside the transaction that inserts it): a forbidden
 * feature the request asked for is refused; one that only came from the defaults (the operator's or
 * the owner's) is left off. Returns the settings to store.
 */
export async function checkNewSiteFeatures(
  db: Db,
  userId: number,
  userPackageId: number | null,
  settings: SiteSettings,
  sent: Readonly<Record<string, unknown>>,
): Promise<SiteSettings> {
  const limit = await featureLimitOf(db, userId, userPackageId);
  if (!limit) return settings;
  const used = featuresUsed({ settings, conditions: await siteConditions(db, null, settings.protection) });
  let result = settings;
  const refused: PackageFeature[] = [];
  for (const feature of used) {
    if (limit.allowed[feature]) continue;
    const use = FEATURE_USES[feature];
    if (use.off && !use.sentWith.some((field) => sent[field] !== undefined)) result = use.off(result);
    else refused.push(feature);
  }
  if (refused.length > 0) throw featureRefusal(limit, refused);
  return result;
}

/** An edit of a saved site: refuses turning on a feature its package does not include. */
export async function checkSiteFeatureChange(
  db: Db,
  site: { id: number; user_id: number; user_package_id: number | null },
  before: SiteSettings,
  after: SiteSettings,
) {
  const limit = await featureLimitOf(db, site.user_id, site.user_package_id);
  if (!limit) return;
  const [was, will] = await Promise.all([
    siteConditions(db, site.id, before.protection),
    siteConditions(db, site.id, after.protection),
  ]);
  const had = new Set(featuresUsed({ settings: before, conditions: was }));
  const added = featuresUsed({ settings: after, conditions: will }).filter(
    (feature) => !had.has(feature) && !limit.allowed[feature],
  );
  if (added.length > 0) throw featureRefusal(limit, added);
}

/**
 * An ACL of a site saved with `entries` (for the protection module's ACL save path): refuses
 * conditions that turn on a feature (country or ASN conditions) the site's package does not include.
 */
export async function checkAclFeatures(db: Db, siteId: number, entries: readonly { condition: ConditionLike }[]) {
  const site = await db
    .selectFrom('sites')
    .select(['id', 'user_id', 'user_package_id', 'settings'])
    .where('id', '=', siteId)
    .executeTakeFirst();
  if (!site) return;
  const limit = await featureLimitOf(db, site.user_id, site.user_package_id);
  if (!limit) return;
  const settings = JSON.parse(site.settings) as SiteSettings;
  const was = await siteConditions(db, site.id, settings.protection);
  const groups = await siteConditions(db, null, settings.protection);
  const had = new Set(featuresUsed({ settings, conditions: was }));
  const will = [...groups, ...entries.map((entry) => entry.condition)];
  const added = featuresUsed({ settings, conditions: will }).filter(
    (feature) => !had.has(feature) && !limit.allowed[feature],
  );
  if (added.length > 0) throw featureRefusal(limit, added);
}

/** The features a site uses that user package `userPackageId` would not allow (moving a site into it). */
export async function featuresBeyond(
  db: Db,
  site: { id: number; user_id: number; settings: string },
  userPackageId: number,
): Promise<PackageFeature[]> {
  const limit = await featureLimitOf(db, site.user_id, userPackageId);
  if (!limit) return [];
  const settings = JSON.parse(site.settings) as SiteSettings;
  const used = featuresUsed({ settings, conditions: await siteConditions(db, site.id, settings.protection) });
  return used.filter((feature) => !limit.allowed[feature]);
}

/** GET /v1/sites/{id}/package-features. */
export async function sitePackageFeatures(
  db: Db,
  site: { id: number; user_id: number; user_package_id: number | null; settings: string },
): Promise<SitePackageFeatures> {
  const settings = JSON.parse(site.settings) as SiteSettings;
  const [limit, conditions] = await Promise.all([
    featureLimitOf(db, site.user_id, site.user_package_id),
    siteConditions(db, site.id, settings.protection),
  ]);
  const inUse = featuresUsed({ settings, conditions });
  return {
    limited: limit !== null,
    user_package_id: site.user_package_id,
    package_name: limit?.packageName ?? null,
    features: limit?.allowed ?? featureSet([]),
    in_use: inUse,
    beyond: limit ? inUse.filter((feature) => !limit.allowed[feature]) : [],
  };
}
