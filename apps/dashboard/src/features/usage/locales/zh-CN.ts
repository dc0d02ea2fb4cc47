import type { LocaleOf } from '../../../shared/i18n/locales/localeShape.ts';
import type { usageEnUS } from './en-US.ts';

export const usageZhCN: LocaleOf<typeof usageEnUS> = {
  usage: {
    month: '计费月份',
    site: '网站',
    billingNote: '按 5 分钟采样的 95 峰值带宽计费（UTC 月）。',
    noPackages: '套餐功能尚未开放：以下为您全部网站的用量。',
    figures: {
      title: '{{month}} 用量',
      bytesOut: '发送流量',
      p95: '95 峰值带宽',
      peak: '峰值带宽',
      forecast: '月底预测',
      requests: '请求数',
    },
    chart: {
      title: '每日流量',
      traffic: '发送流量',
      peak: '每日峰值',
      p95: '95 峰值',
    },
    sites: { title: '按网站', domain: '域名' },
    monitor: {
      title: '本月用量排行',
      rankNote: '按本月流量为用户排序。点击一行查看该用户的用量。',
      noLimits: '尚未创建任何套餐，用户的流量不受限制。',
      account: '账号',
      name: '姓名',
      sites: '网站数',
      userTitle: '{{account}} 的用量',
    },
  },
};
