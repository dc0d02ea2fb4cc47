/** Stream traffic: realtime charts and top lists. */
export const monitorStreamEnUS = {
  monitorStream: {
    stream: 'Stream',
    group: 'Stream group',
    charts: {
      bandwidth: 'Bandwidth',
      connections: 'Connections per interval',
      duration: 'Mean connection time',
      bandwidthIn: 'In',
      bandwidthOut: 'Out',
      connections_line: 'Connections',
      failed: 'Failed',
      meanDuration: 'Mean time',
    },
    totals: {
      title: 'In this range',
      connections: 'Connections',
      failed: 'Failed',
      bytesIn: 'Received',
      bytesOut: 'Sent',
    },
    top: {
      ip: 'Client IPs',
      port: 'Ports',
      key: 'Value',
      connections: 'Connections',
      bytesIn: 'Received',
      bytesOut: 'Sent',
    },
    log: {
      title: 'Connection log',
      stream: 'Stream ID',
      protocol: 'Protocol',
      duration: 'Duration',
      upstream: 'Upstream',
    },
    seconds: '{{value}} s',
  },
};
