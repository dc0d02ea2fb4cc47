import type { LocaleOf } from '../../../shared/i18n/locales/localeShape.ts';
import type { overviewEnUS } from './en-US.ts';

export const overviewZhCN: LocaleOf<typeof overviewEnUS> = {
  overview: {
    welcome: '欢迎，{{name}}',
    userIntro: '您的网站、转发规则和套餐将显示在这里。',
    adminIntro: '节点、用户、套餐和系统设置将显示在这里。',
  },
};
