/** Strings every page needs: the app's own, the HTTP client's and the public pages' titles. */
export const commonEnUS = {
  common: {
    appName: 'Rampart',
    language: 'Language',
    backHome: 'Back to home',
    loading: 'Loading…',
    /** The one wording of a list's count, under every table. */
    total_one: '{{count}} item',
    total_other: '{{count}} items',
    totalCapped: 'more than {{count}} items',
    owner: {
      column: 'Owner',
      system: 'System',
      id: 'User ID {{id}}',
      removed: 'removed user {{id}}',
    },
    error: {
      chunkTitle: 'This page could not be loaded',
      chunkText: 'Its code did not arrive. Check the connection and try again.',
      renderTitle: 'Something went wrong on this page',
      renderText: 'The error is in the front-end log.',
      retry: 'Retry',
    },
  },
  http: {
    status: {
      '400': 'request error',
      '401': 'unauthorized, please log in',
      '403': 'access denied',
      '404': 'address error: {{url}}',
      '408': 'timeout',
      '500': 'internal server error',
      '501': 'not implemented',
      '502': 'bad gateway',
      '503': 'service unavailable',
      '504': 'gateway timeout',
      '505': 'HTTP version not supported',
    },
    failed: 'request failed',
    network: 'network error',
    badResponse: 'invalid response',
  },
  /** Failed calls in the user's words, by the envelope's code (shared/http/errorText.ts). */
  errors: {
    invalid_param: '{{field}}: {{rule}}',
    bad_credentials: 'Wrong account or password',
    captcha_required: 'Enter the captcha',
    captcha_invalid: 'The captcha is wrong or has expired',
    verify_code_invalid: 'The verification code is wrong or has expired',
    two_factor_required: 'Enter the two-factor code',
    two_factor_invalid: 'The two-factor code is wrong',
    register_closed: 'Registration is closed',
    agreement_required: 'Accept the agreement first',
    account_disabled: 'This account is disabled',
    balance_insufficient: 'The balance {{balance}} does not cover {{price}}: {{short}} short',
    limit_reached: 'Package {{package}} allows {{allowed}} {{limit}}; {{used}} are used',
    limit_reached_stock: 'Package {{package}} is sold out',
    provider_failed: '{{provider}} could not take the payment; try again later, or contact the operator',
    package_required: 'Buy a package before adding sites or streams',
    package_feature: 'Package {{package}} does not include this feature ({{field}})',
    channel_unavailable: '{{channel}} is not set up on this system',
    throttled: 'Too many requests; wait a moment and try again',
    internal_error: 'Internal server error',
    /**
     * Without figures: codes whose detail is in the server's words, and failures sent without their
     * params. An English page shows the server's `msg` instead.
     */
    plain: {
      forbidden: 'You may not do this',
      not_found: 'It does not exist (any more)',
      account_exists: 'This account already exists',
      conflict: 'This conflicts with other data',
      too_many_requests: 'Too many requests; wait a moment and try again',
      invalid_param: 'A value is not valid',
      balance_insufficient: 'The balance does not cover this payment',
      limit_reached: 'A limit of your package is reached',
      package_feature: 'Your package does not include this feature',
      channel_unavailable: 'This channel is not set up on this system',
    },
    limit: {
      sites: 'sites',
      domains: 'domains',
      streams: 'streams',
      ports: 'ports',
      coupon: 'coupon uses',
    },
    channel: { wxpay: 'WeChat Pay', alipay: 'Alipay', sms: 'Text messaging', email: 'Email' },
  },
  /** The titles of the pages outside the console, which load no other strings first. */
  route: {
    login: 'Sign in',
    register: 'Register',
    'forget-password': 'Forgot password',
    '403': 'No access',
    '404': 'Page missing',
    '500': 'Server error',
  },
};
