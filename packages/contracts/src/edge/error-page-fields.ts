import { Type } from 'typebox';

/** The statuses the fleet's and a site's error pages answer; `waf` is the WAF's refusal. */
export const ERROR_PAGE_STATUSES = ['400', '403', '404', '500', '502', '503', '504', 'waf'] as const;
export type ErrorPageStatus = (typeof ERROR_PAGE_STATUSES)[number];
export const ERROR_PAGE_LANGUAGES = ['zh-CN', 'en-US'] as const;
export type ErrorPageLanguage = (typeof ERROR_PAGE_LANGUAGES)[number];

export const ERROR_PAGE_MAX_LENGTH = 32_768;

export const ErrorPageHtml = Type.String({
  minLength: 1,
  maxLength: ERROR_PAGE_MAX_LENGTH,
  description: `an HTML page of 1 to ${ERROR_PAGE_MAX_LENGTH} characters`,
});
