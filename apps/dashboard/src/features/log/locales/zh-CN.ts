import type { LocaleOf } from '../../../shared/i18n/locales/localeShape.ts';
import type { logEnUS } from './en-US.ts';

export const logZhCN: LocaleOf<typeof logEnUS> = {
  log: {
    filter: '按消息或地址筛选',
    clear: '清空',
    empty: '本页面还没有出现错误',
    columns: { time: '时间', kind: '类型', message: '消息', url: '地址' },
    kinds: { error: '未捕获的错误', rejection: '未处理的 Promise 拒绝', request: '请求失败' },
  },
};
