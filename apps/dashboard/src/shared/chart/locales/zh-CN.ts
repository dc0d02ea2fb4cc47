import type { LocaleOf } from '../../i18n/locales/localeShape.ts';
import type { chartEnUS } from './en-US.ts';

export const chartZhCN: LocaleOf<typeof chartEnUS> = {
  chart: { empty: '该时段暂无数据' },
};
