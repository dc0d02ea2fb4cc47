/**
 * Stable error codes of the `{code, msg, data}` envelope and the HTTP status each one is sent
 * with. One rule everywhere: a failed call answers a 4xx/5xx status *and* an envelope whose `code`
 * says exactly what failed, so scripts can branch on either.
 */
export const ERROR_STATUS = {
  invalid_param: 400,
  bad_credentials: 400,
  captcha_required: 400,
  captcha_invalid: 400,
  verify_code_invalid: 400,
  two_factor_required: 400,
  two_factor_invalid: 400,
  register_closed: 403,
  agreement_required: 400,
  login_required: 401,
  account_disabled: 403,
  forbidden: 403,
  /** The balance does not cover a purchase: the message names both amounts. */
  balance_insufficient: 402,
  /** A package's limit (sites, domains, streams, ports, stock, coupon uses) is reached; the message names it. */
  limit_reached: 403,
  /** The account needs an active package to create a site or a stream. */
  package_required: 403,
  /** A site would turn on a feature its package does not include; the message names the field. */
  package_feature: 403,
  not_found: 404,
  account_exists: 409,
  conflict: 409,
  /** A payment channel (wxpay, alipay) or a code channel (sms, email) that is not set up. */
  channel_unavailable: 409,
  throttled: 429,
  /** A rate limit: the message says how long to wait. */
  too_many_requests: 429,
  internal_error: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(ERROR_STATUS, code);

/**
 * The figures of a failure, sent beside `msg` in the envelope's `params` so a client can compose
 * the message in the user's language. By code: `invalid_param` {field, rule};
 * `balance_insufficient` {balance, price, short} as money strings ("0.00");
 * `limit_reached` {limit, allowed, used, package}; `package_required` {};
 * `package_feature` {field, feature, package, fields, features} (the lists comma-separated);
 * `channel_unavailable` {channel}.
 */
export type ErrorParams = Record<string, string | number>;
