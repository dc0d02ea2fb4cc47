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
