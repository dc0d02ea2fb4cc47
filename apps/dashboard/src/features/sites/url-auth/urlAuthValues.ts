import {
  DEFAULT_SITE_URL_AUTH,
  FileExtension,
  PathPrefix,
  type SiteUrlAuth,
  URL_AUTH_KEY_PATTERN,
  URL_AUTH_MAX_SCOPE,
  URL_AUTH_MAX_TTL,
  type UrlAuthType,
} from '@rampart/contracts';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { type FieldPath, fitsSchema } from '../edgeRules.ts';

/** The signed-URL section's values: the path prefixes as one per line. */
export type UrlAuthValues = Omit<SiteUrlAuth, 'paths'> & { pathsText: string };

/** The stored setting; a site saved before signed URLs existed reads as the default (off). */
export const storedUrlAuth = (auth: SiteUrlAuth | undefined): SiteUrlAuth => auth ?? DEFAULT_SITE_URL_AUTH;

export const urlAuthValues = (auth: SiteUrlAuth | undefined): UrlAuthValues => {
  const { paths, ...rest } = storedUrlAuth(auth);
  return { ...rest, pathsText: paths.join('\n') };
};

/** The path prefixes of the one-per-line box, each once. */
export const pathLines = (text: string | undefined): string[] => [
  ...new Set(
    (text ?? '')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== ''),
  ),
];

/** The whole object PUT /v1/sites/{id} takes. */
export const urlAuthBody = (values: UrlAuthValues): SiteUrlAuth => ({
  enabled: values.enabled,
  type: values.type,
  key: (values.key ?? '').trim(),
  backup_key: (values.backup_key ?? '').trim(),
  ttl: values.ttl,
  paths: pathLines(values.pathsText),
  extensions: values.extensions,
});

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** 4 × 62: a byte from here up would favour the alphabet's first characters. */
const UNBIASED_BYTES = 248;
export const GENERATED_KEY_LENGTH = 32;

/** A random key of letters and digits from the browser's cryptographic generator. */
export const generateUrlAuthKey = (length = GENERATED_KEY_LENGTH): string => {
  let key = '';
  // Each round keeps 31 of 32 bytes on average: a few rounds always suffice.
  for (let round = 0; round < 16 && key.length < length; round++) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length))) {
      if (byte < UNBIASED_BYTES && key.length < length) key += KEY_ALPHABET[byte % KEY_ALPHABET.length];
    }
  }
  if (key.length < length) throw new Error('the random generator gave too few usable bytes');
  return key;
};

const DURATION_UNITS = [
  ['days', 86_400],
  ['hours', 3600],
  ['minutes', 60],
  ['seconds', 1],
] as const;
export type DurationUnit = (typeof DURATION_UNITS)[number][0];

/** A validity in whole days, hours, minutes and seconds: 5400 → 1 hour, 30 minutes. */
export const durationParts = (seconds: number): { unit: DurationUnit; count: number }[] => {
  const parts: { unit: DurationUnit; count: number }[] = [];
  let rest = seconds;
  for (const [unit, size] of DURATION_UNITS) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0) parts.push({ unit, count });
  }
  return parts;
};

/** What a signed URL of each scheme looks like, with placeholders for the signature's parts. */
export const signedUrlExample = (type: UrlAuthType, domain: string, path: string): string => {
  if (type === 'a') return `https://${domain}${path}?auth_key=<ts>-<rand>-<uid>-<md5>`;
  if (type === 'b') return `https://${domain}/<YYYYMMDDHHMM>/<md5>${path}`;
  return `https://${domain}/<md5>/<ts in hex>${path}`;
};

/** The string whose MD5 each scheme puts in the URL. */
export const SIGNED_STRING: Record<UrlAuthType, string> = {
  a: '<path>-<ts>-<rand>-<uid>-<key>',
  b: '<key><YYYYMMDDHHMM><path>',
  c: '<key><path><ts in hex>',
};

/** A file the example URL signs: under the first protected path, of the first protected type. */
export const examplePath = (pathsText: string | undefined, extensions: readonly string[] | undefined): string => {
  const prefix = (pathLines(pathsText)[0] ?? '/').replace(/\/+$/, '');
  return `${prefix}/example.${extensions?.[0] ?? 'mp4'}`;
};

const FIELD_BOXES: Record<string, string> = { paths: 'pathsText' };

/**
 * The section's field for a server-named field: `url_auth/paths/0` is the paths box,
 * `url_auth/extensions/1` the tags box; a message about the whole object shows at the switch.
 */
export const urlAuthFieldPath = (name: FieldPath): FieldPath => {
  const field = name[1];
  if (field === undefined) return ['url_auth', 'enabled'];
  return ['url_auth', FIELD_BOXES[String(field)] ?? field];
};

const KEY = new RegExp(URL_AUTH_KEY_PATTERN);

/** Form rules from the contract's limits and the master's rules; messages name what is wrong and what is allowed. */
export const urlAuthRules = (t: TFunction) => {
  const keyShape: Rule = {
    validator: async (_rule, value: string | undefined) => {
      const key = value?.trim() ?? '';
      if (key !== '' && !KEY.test(key)) throw new Error(t('sites.urlAuth.rule.key'));
    },
  };
  return {
    key: [
      keyShape,
      ({ getFieldValue }) => ({
        validator: async (_rule, value: string | undefined) => {
          if ((value?.trim() ?? '') !== '') return;
          if (getFieldValue(['url_auth', 'enabled']) === true) throw new Error(t('sites.urlAuth.rule.keyRequired'));
          if ((getFieldValue(['url_auth', 'backup_key']) ?? '').trim() !== '')
            throw new Error(t('sites.urlAuth.rule.backupNeedsKey'));
        },
      }),
    ] satisfies Rule[],
    backupKey: [
      keyShape,
      ({ getFieldValue }) => ({
        validator: async (_rule, value: string | undefined) => {
          const backup = value?.trim() ?? '';
          if (backup !== '' && backup === (getFieldValue(['url_auth', 'key']) ?? '').trim())
            throw new Error(t('sites.urlAuth.rule.backupSame'));
        },
      }),
    ] satisfies Rule[],
    ttl: [
      { required: true, type: 'integer', min: 1, max: URL_AUTH_MAX_TTL, message: t('sites.urlAuth.rule.ttl') },
    ] satisfies Rule[],
    paths: [
      {
        validator: async (_rule, value: string | undefined) => {
          const paths = pathLines(value);
          if (paths.length > URL_AUTH_MAX_SCOPE)
            throw new Error(t('sites.urlAuth.rule.pathsMax', { max: URL_AUTH_MAX_SCOPE }));
          const wrong = paths.find((path) => !fitsSchema(PathPrefix, path));
          if (wrong !== undefined) throw new Error(t('sites.urlAuth.rule.path', { path: wrong }));
        },
      },
    ] satisfies Rule[],
    extensions: [
      {
        validator: async (_rule, value: string[] | undefined) => {
          const extensions = value ?? [];
          if (extensions.length > URL_AUTH_MAX_SCOPE)
            throw new Error(t('sites.urlAuth.rule.extensionsMax', { max: URL_AUTH_MAX_SCOPE }));
          const wrong = extensions.find((extension) => !fitsSchema(FileExtension, extension));
          if (wrong !== undefined) throw new Error(t('sites.urlAuth.rule.extension', { extension: wrong }));
        },
      },
    ] satisfies Rule[],
  };
};
