import { create } from 'zustand';
import { type CloseCommand, closeMany, closeTab, moveTab, type OpenedTab, openTab } from './tabModel.ts';
import { readStoredTabs, writeStoredTabs } from './tabStorage.ts';

interface TabsState {
  /** Whose tabs these are (the user id); null before sign-in and after sign-out. */
  owner: string | null;
  tabs: OpenedTab[];
  /**
   * Loads the user's saved tabs, dropping those `restorable` refuses (unknown route, no permission),
   * with the home tab first.
   */
  start: (owner: string, home: OpenedTab, restorable: (tab: OpenedTab) => boolean) => void;
  /** Forgets the tabs in memory; the saved copy stays for the next sign-in. */
  stop: () => void;
  open: (tab: OpenedTab) => void;
  /** Returns where to navigate when the current tab was closed. */
  close: (fullPath: string, current: string) => string | undefined;
  closeMany: (command: CloseCommand, fullPath: string, current: string) => string | undefined;
  move: (from: string, to: string) => void;
  /** A page names its own tab; reopening the tab keeps that title. */
  setTitle: (fullPath: string, title: string) => void;
}

/** Where close-all goes: the index, which sends each user type to its landing page. */
export const INDEX_PATH = '/';

export const createTabsStore = () => {
  const store = create<TabsState>((set, get) => ({
    owner: null,
    tabs: [],
    start: (owner, home, restorable) => {
      const saved = readStoredTabs(owner).filter((tab) => tab.fullPath !== home.fullPath && restorable(tab));
      set({ owner, tabs: [home, ...saved] });
    },
    stop: () => set({ owner: null, tabs: [] }),
    open: (tab) => set(({ tabs }) => ({ tabs: openTab(tabs, tab) })),
    close: (fullPath, current) => {
      const home = get().tabs[0]?.fullPath ?? INDEX_PATH;
      const { tabs, next } = closeTab(get().tabs, fullPath, current, home);
      set({ tabs });
      return next;
    },
    closeMany: (command, fullPath, current) => {
      const { tabs, next } = closeMany(get().tabs, command, fullPath, current, INDEX_PATH);
      set({ tabs });
      return next;
    },
    move: (from, to) => set(({ tabs }) => ({ tabs: moveTab(tabs, from, to) })),
    setTitle: (fullPath, title) =>
      set(({ tabs }) => ({
        tabs: tabs.map((tab) =>
          tab.fullPath === fullPath ? { ...tab, meta: { ...tab.meta, title }, keepMeta: true } : tab,
        ),
      })),
  }));
  store.subscribe(({ owner, tabs }, previous) => {
    if (owner && owner === previous.owner && tabs !== previous.tabs) writeStoredTabs(owner, tabs);
  });
  return store;
};

export const useTabs = createTabsStore();
