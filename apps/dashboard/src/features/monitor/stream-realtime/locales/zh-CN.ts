/** 四层转发流量：实时图表和排行。 */
export const monitorStreamZhCN = {
  monitorStream: {
    stream: '转发',
    group: '转发分组',
    charts: {
      bandwidth: '带宽',
      connections: '每个时间点的连接数',
      duration: '平均连接时长',
      bandwidthIn: '入',
      bandwidthOut: '出',
      connections_line: '连接数',
      failed: '失败',
      meanDuration: '平均时长',
    },
    totals: {
      title: '本时间范围',
      connections: '连接数',
      failed: '失败',
      bytesIn: '接收',
      bytesOut: '发送',
    },
    top: {
      ip: '客户端 IP',
      port: '端口',
      key: '值',
      connections: '连接数',
      bytesIn: '接收',
      bytesOut: '发送',
    },
    log: {
      title: '连接日志',
      stream: '转发 ID',
      protocol: '协议',
      duration: '时长',
      upstream: '上游',
    },
    seconds: '{{value}} 秒',
  },
};
