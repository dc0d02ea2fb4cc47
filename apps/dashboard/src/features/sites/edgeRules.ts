import {
  DOMAIN_PATTERN,
  FileExtension,
  HeaderName,
  HeaderValue,
  HostHeader,
  ObjectName,
  OriginAddress,
  PathPrefix,
} from '@rampart/contracts';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';

interface StringLimits {
  pattern?: string;
  minLength?: number;
  maxLength?: number;
}

/** Whether a value passes a contracts string schema's pattern and length limits. */
export const fitsSchema = (schema: object, value: string): boolean => {
  const { pattern, minLength, maxLength } = schema as StringLimits;
  if (minLength !== undefined && value.length < minLength) return false;
  if (maxLength !== undefined && value.length > maxLength) return false;
  return pattern === undefined || new RegExp(pattern).test(value);
};

const DOMAIN = new RegExp(DOMAIN_PATTERN);

/** A domain as the master stores it: lowercase, Unicode names in punycode (as the master converts them). */
export const asciiDomain = (domain: string): string => {
  const lower = domain.trim().toLowerCase();
  const wildcard = lower.startsWith('*.');
  const rest = wildcard ? lower.slice(2) : lower;
  // URL's host parser applies IDNA; a value it rejects or changes beyond IDNA is left for the pattern to refuse.
  if (/^[\x21-\x7e]*$/.test(rest)) return lower;
  try {
    const host = new URL(`http://${rest}/`).hostname;
    return wildcard ? `*.${host}` : host;
  } catch {
    return lower;
  }
};

export const isDomain = (domain: string): boolean => DOMAIN.test(asciiDomain(domain));

/** The domains of a one-per-line text box. */
export const domainLines = (text: string | undefined): string[] =>
  (text ?? '')
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter((line) => line !== '');

const schemaRule = (schema: object, message: string): Rule => ({
  validator: async (_rule, value: unknown) => {
    if (value === undefined || value === null || value === '') return;
    if (typeof value !== 'string' || !fitsSchema(schema, value)) throw new Error(message);
  },
});

/** Form rules from the same schemas the master validates with; messages say what is allowed. */
export const edgeRules = (t: TFunction) => ({
  domains: {
    validator: async (_rule: unknown, value: string | undefined) => {
      const domains = domainLines(value);
      if (domains.length === 0) throw new Error(t('sites.rule.domainsRequired'));
      if (domains.length > 100) throw new Error(t('sites.rule.domainsMax'));
      const wrong = domains.find((domain) => !isDomain(domain));
      if (wrong !== undefined) throw new Error(t('sites.rule.domain', { domain: wrong }));
    },
  } satisfies Rule,
  originAddress: [
    { required: true, message: t('sites.rule.originAddress') },
    schemaRule(OriginAddress, t('sites.rule.originAddress')),
  ] satisfies Rule[],
  port: [{ required: true, type: 'integer', min: 1, max: 65535, message: t('sites.rule.port') }] satisfies Rule[],
  weight: [{ required: true, type: 'integer', min: 1, max: 100, message: t('sites.rule.weight') }] satisfies Rule[],
  hostHeader: [schemaRule(HostHeader, t('sites.rule.hostHeader'))] satisfies Rule[],
  name: [schemaRule(ObjectName, t('sites.rule.name'))] satisfies Rule[],
  headerName: [
    { required: true, message: t('sites.rule.headerName') },
    schemaRule(HeaderName, t('sites.rule.headerName')),
  ] satisfies Rule[],
  headerValue: [schemaRule(HeaderValue, t('sites.rule.headerValue'))] satisfies Rule[],
  pathPrefix: [
    { required: true, message: t('sites.rule.pathPrefix') },
    schemaRule(PathPrefix, t('sites.rule.pathPrefix')),
  ] satisfies Rule[],
  extension: [
    { required: true, message: t('sites.rule.extension') },
    schemaRule(FileExtension, t('sites.rule.extension')),
  ] satisfies Rule[],
  ttl: [{ required: true, type: 'integer', min: 0, max: 31_536_000, message: t('sites.rule.ttl') }] satisfies Rule[],
});

export type FieldPath = (string | number)[];

/**
 * The form field a server message names: `body/origins/0/address: must be …` → ['origins', 0, 'address']
 * and the text after the colon; undefined when the message names no field.
 */
export const serverFieldError = (msg: string): { name: FieldPath; text: string } | undefined => {
  const match = /^(?:body\/)?([a-z_][a-z0-9_]*(?:\/[a-z0-9_]+)*): (.+)$/s.exec(msg);
  if (!match?.[1] || !match[2]) return undefined;
  const name = match[1].split('/').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  return { name, text: match[2] };
};
