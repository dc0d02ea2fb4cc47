export const cacheCleanEnUS = {
  cacheClean: {
    type: { 'purge-url': 'Refresh URLs', 'purge-dir': 'Refresh directories', prefetch: 'Pre-warm URLs' },
    help: {
      'purge-url': 'URLs to refresh, one per line',
      'purge-dir': 'Directories to refresh, one per line, each ending with /',
      prefetch: 'URLs to pre-warm, one per line',
    },
    rule: {
      count: 'Enter 1 to 1000 URLs',
      url: '{{url}} is not allowed: an absolute http(s) URL without spaces or control characters',
    },
    submit: 'Submit',
    submitted: 'The job was submitted',
    history: 'Job history',
    progress: '{{done}} done, {{failed}} failed of {{total}}',
    column: { type: 'Type', urls: 'URLs', progress: 'Progress', nodes: 'Nodes', time: 'Submitted' },
  },
};
