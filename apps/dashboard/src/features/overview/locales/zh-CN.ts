import type { LocaleOf } from '../../../shared/i18n/locales/localeShape.ts';
import type { overviewEnUS } from './en-US.ts';

export const overviewZhCN: LocaleOf<typeof overviewEnUS> = {
  overview: {
    welcome: '欢迎，{{name}}',
    userIntro: '您的网站、转发规则和流量一览（按 UTC 日计）。',
    adminIntro: '节点、用户和今日流量一览（按 UTC 日计）。',
    trend: '近 14 天流量',
    figures: {
      today: '今日',
      sites: '网站',
      streams: '转发规则',
      traffic: '发送流量',
      requests: '请求数',
      blocked: '拦截请求',
    },
    admin: {
      fleet: '服务概况',
      nodesOnline: '在线节点',
      nodesOffline: '离线节点',
      users: '用户',
      newUsers: '今日新用户',
      packagesSold: '今日售出套餐',
      orders: '今日订单',
      topSites: '今日网站排行',
      domain: '网站',
    },
    mine: {
      services: '我的服务',
      certs: '证书',
      certsExpiring: '30 天内到期的证书',
      monthTraffic: '本月流量',
      notAfter: '{{date}} 到期',
    },
    user: {
      account: '账号',
      name: '姓名',
      type: '账户类型',
      email: '邮箱',
      phone: '手机',
      balance: '余额',
    },
    userType: { '1': '管理员', '2': '用户' },
    system: {
      title: '系统信息',
      siteName: '站点名称',
      register: '注册',
      open: '开放',
      closed: '关闭',
      copyright: '页脚',
      link: '页脚链接',
    },
  },
};
