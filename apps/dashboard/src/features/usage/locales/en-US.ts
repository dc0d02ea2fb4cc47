/** Usage: the month's traffic and 95th-percentile bandwidth, and the admin's package monitor. */
export const usageEnUS = {
  usage: {
    month: 'Billing month',
    site: 'Site',
    billingNote: 'Billed by the 95th percentile of 5-minute samples (UTC month).',
    noPackages: 'Packages are not available yet: the figures are your usage across all your sites.',
    figures: {
      title: 'Usage in {{month}}',
      bytesOut: 'Traffic sent',
      p95: '95th percentile',
      peak: 'Peak bandwidth',
      forecast: 'Forecast to month end',
      requests: 'Requests',
    },
    chart: {
      title: 'Traffic per day',
      traffic: 'Traffic sent',
      peak: 'Daily peak',
      p95: '95th percentile',
    },
    sites: { title: 'Per site', domain: 'Domain' },
    monitor: {
      title: 'Users by usage this month',
      rankNote: 'Users are ranked by their traffic this month. Pick a row to see that user.',
      noLimits: 'No package exists yet, so nothing limits the users’ traffic.',
      account: 'Account',
      name: 'Name',
      sites: 'Sites',
      userTitle: 'Usage of {{account}}',
    },
  },
};
