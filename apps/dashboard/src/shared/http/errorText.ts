import type { i18n as I18n } from 'i18next';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { centsFromText } from '../util/money.ts';
import type { ApiError } from './apiError.ts';
import { statusMessage } from './statusMessage.ts';

/** What errorText needs of i18next: the strings of the page's language and `t`. */
export type ErrorI18n = Pick<I18n, 't' | 'language' | 'getResource'>;

/** Params the server sends as money strings ("290.00"). */
const MONEY_PARAMS = new Set(['balance', 'price', 'short']);
/** Params whose value is a word of the API (`sites`, `wxpay`): shown through `errors.<param>.<value>`. */
const WORD_PARAMS: Record<string, string> = { limit: 'limit', channel: 'channel', provider: 'channel' };
/** Codes the client makes itself when no envelope came back. */
const CLIENT_CODES: Record<string, string> = { network: 'http.network', bad_response: 'http.badResponse' };
const PLACEHOLDER = /{{\s*(\w+)\s*}}/g;

const formatMoney = (text: string, language: string): string | undefined => {
  const cents = centsFromText(text, { signed: true });
  if (cents === null) return undefined;
  return new Intl.NumberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(cents / 100);
};

/** The string of `key` in the page's language only: a fallback language would put English on a zh-CN page. */
const ownString = (i18n: ErrorI18n, key: string): string | undefined => {
  const value: unknown = i18n.getResource(i18n.language, 'translation', key);
  return typeof value === 'string' ? value : undefined;
};

/** The params ready to show: money in the page's format, API words translated; a param that cannot be shown is left out. */
const shownParams = (i18n: ErrorI18n, params: Readonly<Record<string, string | number>>) => {
  const shown: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    const text = String(value);
    const group = WORD_PARAMS[name];
    const word = group ? ownString(i18n, `errors.${group}.${text}`) : undefined;
    const money = MONEY_PARAMS.has(name) ? formatMoney(text, i18n.language) : undefined;
    if (group) {
      if (word !== undefined) shown[name] = word;
    } else if (MONEY_PARAMS.has(name)) {
      if (money !== undefined) shown[name] = money;
    } else {
      shown[name] = text;
    }
  }
  return shown;
};

/** `errors.<code>` (or its variant) with every placeholder filled, else undefined. */
const filled = (i18n: ErrorI18n, key: string, shown: Record<string, string>): string | undefined => {
  const text = ownString(i18n, key);
  if (text === undefined) return undefined;
  const needed = [...text.matchAll(PLACEHOLDER)].map((match) => match[1] ?? '');
  return needed.every((name) => name in shown) ? i18n.t(key, shown) : undefined;
};

/** The text of a failure that has a variant of its own (a package out of stock is not a full one). */
const variantKey = (error: ApiError): string | undefined => {
  if (error.code === 'limit_reached' && error.params?.limit === 'stock') return 'errors.limit_reached_stock';
  if (error.code === 'conflict' && error.params?.provider !== undefined) return 'errors.provider_failed';
  return undefined;
};

/**
 * A failed call in the user's language: `errors.<code>` with the params filled in (money in the
 * page's format); else, on an en-US page only, the server's English `msg`; else the code's text
 * without figures (`errors.plain.<code>`); else the text of the HTTP status.
 */
export const errorText = (error: ApiError, i18n: ErrorI18n): string => {
  const clientKey = CLIENT_CODES[error.code];
  if (clientKey) return i18n.t(clientKey);
  if (/^\d+$/.test(error.code))
    return statusMessage(error.status, error.url, (key, values) => i18n.t(key, values ?? {}));
  const shown = shownParams(i18n, error.params ?? {});
  const variant = variantKey(error);
  const text = (variant && filled(i18n, variant, shown)) ?? filled(i18n, `errors.${error.code}`, shown);
  if (text !== undefined) return text;
  if (i18n.language.startsWith('en') && error.message) return error.message;
  const plain = ownString(i18n, `errors.plain.${error.code}`);
  if (plain !== undefined) return plain;
  return statusMessage(error.status, error.url, (key, values) => i18n.t(key, values ?? {}));
};

/** The popup of spec §8, 'text - code', with the text in the user's language. */
export const errorPopupText = (error: ApiError, i18n: ErrorI18n): string => `${errorText(error, i18n)} - ${error.code}`;

/** errorText bound to the page's language. */
export const useErrorText = (): ((error: ApiError) => string) => {
  const { i18n } = useTranslation();
  const { language } = i18n;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the language changes the text, not the instance
  return useCallback((error: ApiError) => errorText(error, i18n), [i18n, language]);
};
