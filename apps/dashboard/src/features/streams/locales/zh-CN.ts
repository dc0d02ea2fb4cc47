import type { LocaleOf } from '../../../shared/i18n/locales/localeShape.ts';
import type { streamsEnUS } from './en-US.ts';

export const streamsZhCN: LocaleOf<typeof streamsEnUS> = {
  streams: {
    field: { listenPort: '监听端口', protocol: '协议', proxyProtocol: '向源站发送 PROXY 协议' },
    list: {
      port: '按端口搜索',
      add: '添加转发',
      actions: '操作',
      edit: '编辑',
    },
    add: { title: '添加转发' },
    edit: { title: '端口 {{port}} 的转发' },
  },
};
