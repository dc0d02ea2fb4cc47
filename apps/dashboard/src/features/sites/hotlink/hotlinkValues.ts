import {
  DEFAULT_SITE_HOTLINK,
  FileExtension,
  HOTLINK_MAX_EXTENSIONS,
  HOTLINK_MAX_HOSTS,
  HOTLINK_REDIRECT_PATTERN,
  type SiteHotlink,
} from '@rampart/contracts';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { asciiDomain, domainLines, type FieldPath, fitsSchema, isDomain } from '../edgeRules.ts';

/** The hotlink section's values: the referer hosts as one per line. */
export type HotlinkValues = Omit<SiteHotlink, 'allow' | 'deny'> & { allowText: string; denyText: string };

/** The stored setting; a site saved before hotlink protection existed reads as the default (off). */
export const storedHotlink = (hotlink: SiteHotlink | undefined): SiteHotlink => hotlink ?? DEFAULT_SITE_HOTLINK;

export const hotlinkValues = (hotlink: SiteHotlink | undefined): HotlinkValues => {
  const { allow, deny, ...rest } = storedHotlink(hotlink);
  return { ...rest, allowText: allow.join('\n'), denyText: deny.join('\n') };
};

/** The hosts of a one-per-line box as the master stores them: lowercase, punycode, each once. */
const hostList = (text: string | undefined): string[] => [...new Set(domainLines(text).map(asciiDomain))];

/** The whole object PUT /v1/sites/{id} takes; a forbid keeps no redirect URL. */
export const hotlinkBody = (values: HotlinkValues): SiteHotlink => ({
  enabled: values.enabled,
  allow: hostList(values.allowText),
  deny: hostList(values.denyText),
  allow_empty: values.allow_empty,
  extensions: values.extensions,
  action: values.action,
  redirect_url: values.action === 'redirect' ? values.redirect_url.trim() : '',
});

/** Extensions as typed into the tags box: without a leading dot, lowercase, each once. */
export const normalizeExtensions = (extensions: readonly string[] | undefined): string[] => [
  ...new Set((extensions ?? []).map((extension) => extension.trim().replace(/^\./, '').toLowerCase())),
];

const HOST_BOXES: Record<string, string> = { allow: 'allowText', deny: 'denyText' };

/**
 * The section's field for a server-named hotlink field: `hotlink/deny/0` is the denied-hosts box,
 * `hotlink/extensions/1` the tags box; a message about the whole object shows at the switch.
 */
export const hotlinkFieldPath = (name: FieldPath): FieldPath => {
  const field = name[1];
  if (field === undefined) return ['hotlink', 'enabled'];
  return ['hotlink', HOST_BOXES[String(field)] ?? field];
};

const REDIRECT_URL = new RegExp(HOTLINK_REDIRECT_PATTERN);

/** Form rules from the contract's limits; messages name what is wrong and what is allowed. */
export const hotlinkRules = (t: TFunction) => {
  const hosts: Rule = {
    validator: async (_rule, value: string | undefined) => {
      const lines = domainLines(value);
      if (lines.length > HOTLINK_MAX_HOSTS)
        throw new Error(t('sites.hotlink.rule.hostsMax', { max: HOTLINK_MAX_HOSTS }));
      const wrong = lines.find((host) => !isDomain(host));
      if (wrong !== undefined) throw new Error(t('sites.hotlink.rule.host', { host: wrong }));
    },
  };
  return {
    allow: [hosts] satisfies Rule[],
    deny: [
      hosts,
      ({ getFieldValue }) => ({
        validator: async (_rule, value: string | undefined) => {
          const allowed = new Set(hostList(getFieldValue(['hotlink', 'allowText']) as string | undefined));
          const both = hostList(value).find((host) => allowed.has(host));
          if (both !== undefined) throw new Error(t('sites.hotlink.rule.both', { host: both }));
        },
      }),
    ] satisfies Rule[],
    extensions: [
      {
        validator: async (_rule, value: string[] | undefined) => {
          const extensions = value ?? [];
          if (extensions.length === 0 || extensions.length > HOTLINK_MAX_EXTENSIONS) {
            throw new Error(t('sites.hotlink.rule.extensionsCount', { max: HOTLINK_MAX_EXTENSIONS }));
          }
          const wrong = extensions.find((extension) => !fitsSchema(FileExtension, extension));
          if (wrong !== undefined) throw new Error(t('sites.hotlink.rule.extension', { extension: wrong }));
        },
      },
    ] satisfies Rule[],
    redirectUrl: [
      { required: true, whitespace: true, message: t('sites.hotlink.rule.redirectRequired') },
      {
        validator: async (_rule, value: string | undefined) => {
          const url = value?.trim() ?? '';
          if (url !== '' && !(REDIRECT_URL.test(url) && URL.canParse(url)))
            throw new Error(t('sites.hotlink.rule.redirectUrl'));
        },
      },
    ] satisfies Rule[],
  };
};
