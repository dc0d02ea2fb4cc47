import type { MenuProps } from 'antd/es/menu';
import type { CloseCommand, OpenedTab } from './tabModel.ts';

export const CLOSE_COMMANDS: readonly CloseCommand[] = ['left', 'right', 'others', 'all'];

const LABELS: Record<CloseCommand, string> = {
  left: 'layout.tabs.closeLeft',
  right: 'layout.tabs.closeRight',
  others: 'layout.tabs.closeOthers',
  all: 'layout.tabs.closeAll',
};

/** The close menu of one tab; a command that would close nothing is disabled. */
export const closeMenuItems = (
  tabs: readonly OpenedTab[],
  fullPath: string,
  t: (key: string) => string,
): NonNullable<MenuProps['items']> => {
  const index = tabs.findIndex((tab) => tab.fullPath === fullPath);
  const closable = (from: number, to: number) =>
    tabs.slice(from, to).some((tab, offset) => from + offset !== 0 && from + offset !== index && tab.meta.closable);
  const chosen = index !== -1;
  const enabled: Record<CloseCommand, boolean> = {
    left: chosen && closable(0, index),
    right: chosen && closable(index + 1, tabs.length),
    others: chosen && closable(0, tabs.length),
    all: tabs.slice(1).some((tab) => tab.meta.closable),
  };
  return CLOSE_COMMANDS.map((command) => ({ key: command, label: t(LABELS[command]), disabled: !enabled[command] }));
};
