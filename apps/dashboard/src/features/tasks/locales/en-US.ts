export const tasksEnUS = {
  tasks: {
    scheduledTitle: 'Scheduled tasks',
    queueTitle: 'Background tasks',
    name: {
      'cert-renewal': 'Certificate renewal',
      'log-retention': 'Log retention',
      'expiry-notices': 'Expiry notices',
      'traffic-retention': 'Traffic data retention',
      'user-packages': 'Package settlement',
      'dns-drift': 'DNS record check',
      'domain-proofs': 'Domain ownership check',
      'wxpay-certificates': 'WeChat Pay certificates',
    },
    about: {
      'traffic-retention':
        'Removes access logs, traffic rollups, node reports and usage samples older than /sys/setting keeps them.',
      'expiry-notices':
        'Tells owners of certificates that expire in 30, 7 or 1 day(s) and of packages that end in 7, 3 or 1 day(s), or have expired, and owners whose balance will not cover an automatic renewal, as they subscribed.',
      'user-packages':
        'Renews or expires packages past their end, applies the monthly traffic cap, and tells owners at 80% and 100% of it.',
      'cert-renewal': 'Queues the renewal of ACME certificates that expire soon.',
      'log-retention':
        'Deletes operation, sign-in, message-send and IP-switch log entries older than the retention (at least 180 days).',
      'dns-drift':
        'Compares each line group’s records at its DNS provider with its settings, and tells the admins when they differ or cannot be read.',
      'domain-proofs':
        'Looks up the DNS records of domains waiting for proof of ownership: each run for their first day, hourly after. A domain proved goes live on the edges.',
      'wxpay-certificates':
        'Downloads the WeChat Pay platform certificates (while WeChat Pay is on and verifies with certificates), so that a new certificate is trusted before WeChat Pay signs with it.',
    },
    column: {
      name: 'Task',
      enabled: 'Enabled',
      interval: 'Runs every',
      lastRun: 'Last run',
      result: 'Result',
      duration: 'Duration',
      nextRun: 'Next run',
      actions: 'Actions',
    },
    every: {
      minutes_one: '{{count}} minute',
      minutes_other: '{{count}} minutes',
      hours_one: '{{count}} hour',
      hours_other: '{{count}} hours',
      days_one: '{{count}} day',
      days_other: '{{count}} days',
    },
    result: { ok: 'Succeeded', failed: 'Failed', running: 'Running' },
    enable: 'Run {{name}} on its schedule',
    disabled: 'Disabled',
    runNow: 'Run now',
    cancel: 'Cancel',
    state: { queued: 'Queued', running: 'Running', done: 'Done', failed: 'Failed' },
    queue: {
      kind: 'Kind',
      state: 'State',
      progress: 'Progress',
      error: 'Error',
      created: 'Created',
      finished: 'Finished',
      retry: 'Retry',
      confirmRetry: 'Run this failed task again?',
    },
  },
};
