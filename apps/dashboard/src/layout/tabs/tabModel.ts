/** Spec §3 "Opened tab" and the rules of spec §4. Pure functions; the store applies them. */
export interface TabMeta {
  /** i18n key, or the page's own title when `keepMeta` is set. */
  title: string;
  closable: boolean;
  cache: boolean;
  icon?: string;
}

export interface OpenedTab {
  name: string;
  fullPath: string;
  params: Record<string, string>;
  query: Record<string, string>;
  meta: TabMeta;
  /** The page set its own meta (a title); opening the tab again keeps it. */
  keepMeta?: boolean;
}

export type CloseCommand = 'left' | 'right' | 'others' | 'all';

/** Opening a route adds a tab, or updates the tab with the same fullPath. */
export const openTab = (tabs: readonly OpenedTab[], tab: OpenedTab): OpenedTab[] => {
  const index = tabs.findIndex((open) => open.fullPath === tab.fullPath);
  if (index === -1) return [...tabs, tab];
  return tabs.map((open, at) =>
    at === index ? { ...tab, meta: open.keepMeta ? open.meta : tab.meta, keepMeta: open.keepMeta } : open,
  );
};

export interface Closed {
  tabs: OpenedTab[];
  /** Where to go when the current tab was closed; undefined to stay. */
  next?: string;
}

/**
 * Closing the current tab moves to the next tab, or the previous one if it was last, or `home`
 * when none remain. Tabs that are not closable stay.
 */
export const closeTab = (tabs: readonly OpenedTab[], fullPath: string, current: string, home: string): Closed => {
  const index = tabs.findIndex((tab) => tab.fullPath === fullPath);
  const tab = tabs[index];
  if (!tab?.meta.closable) return { tabs: [...tabs] };
  const rest = tabs.filter((_, at) => at !== index);
  if (fullPath !== current) return { tabs: rest };
  const next = tabs[index + 1] ?? tabs[index - 1];
  return { tabs: rest, next: next?.fullPath ?? home };
};

/**
 * Close left / right / others keep the first tab and the chosen one (and the tabs on the kept
 * side); close all keeps only the first tab and goes to the index. The chosen tab becomes current
 * when the current one was closed.
 */
export const closeMany = (
  tabs: readonly OpenedTab[],
  command: CloseCommand,
  fullPath: string,
  current: string,
  index: string,
): Closed => {
  const chosen = tabs.findIndex((tab) => tab.fullPath === fullPath);
  const keep = (tab: OpenedTab, at: number): boolean => {
    if (at === 0 || !tab.meta.closable) return true;
    if (command === 'all') return false;
    if (at === chosen) return true;
    if (command === 'left') return at > chosen;
    if (command === 'right') return at < chosen;
    return false;
  };
  if (command !== 'all' && chosen === -1) return { tabs: [...tabs] };
  const kept = tabs.filter(keep);
  if (command === 'all') return { tabs: kept, next: index };
  return { tabs: kept, next: kept.some((tab) => tab.fullPath === current) ? undefined : fullPath };
};

/** Drag to reorder: the dragged tab takes the place of the one it was dropped on. The first tab stays first. */
export const moveTab = (tabs: readonly OpenedTab[], from: string, to: string): OpenedTab[] => {
  const fromIndex = tabs.findIndex((tab) => tab.fullPath === from);
  const toIndex = tabs.findIndex((tab) => tab.fullPath === to);
  if (fromIndex <= 0 || toIndex <= 0 || fromIndex === toIndex) return [...tabs];
  const moved = [...tabs];
  const [tab] = moved.splice(fromIndex, 1);
  if (tab) moved.splice(toIndex, 0, tab);
  return moved;
};
