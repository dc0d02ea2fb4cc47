import type { LocaleOf } from '../../../shared/i18n/locales/localeShape.ts';
import type { cacheCleanEnUS } from './en-US.ts';

export const cacheCleanZhCN: LocaleOf<typeof cacheCleanEnUS> = {
  cacheClean: {
    type: { 'purge-url': 'URL 刷新', 'purge-dir': '目录刷新', prefetch: 'URL 预热' },
    help: {
      'purge-url': '要刷新的 URL，每行一个',
      'purge-dir': '要刷新的目录，每行一个，以 / 结尾',
      prefetch: '要预热的 URL，每行一个',
    },
    rule: {
      count: '请输入 1 到 1000 个 URL',
      url: '{{url}} 不合法：应为不含空格和控制字符的完整 http(s) URL',
    },
    submit: '提交',
    submitted: '任务已提交',
    history: '任务记录',
    progress: '共 {{total}}，完成 {{done}}，失败 {{failed}}',
    column: { type: '类型', urls: 'URL', progress: '进度', nodes: '节点', time: '提交时间' },
  },
};
