import type { LocaleOf } from '../../../shared/i18n/locales/localeShape.ts';
import type { overviewEnUS } from './en-US.ts';

export const overviewZhCN: LocaleOf<typeof overviewEnUS> = {
  overview: {
    welcome: '欢迎，{{name}}',
    userIntro: '您的网站、转发规则和套餐将显示在这里。',
    adminIntro: '节点、用户、套餐和系统设置将显示在这里。',
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
