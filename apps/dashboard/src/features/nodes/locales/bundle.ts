import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { nodesEnUS } from './en-US.ts';
import { nodesZhCN } from './zh-CN.ts';

/** The strings of /node/list (nodes, pending nodes, the install command). */
export const NODES_LOCALES: LocaleBundle = { 'zh-CN': nodesZhCN, 'en-US': nodesEnUS };
