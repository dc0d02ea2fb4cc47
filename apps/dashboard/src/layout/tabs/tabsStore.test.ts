// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import type { OpenedTab } from './tabModel.ts';
import { tabsStorageKey } from './tabStorage.ts';
import { createTabsStore, INDEX_PATH } from './tabsStore.ts';

const tab = (fullPath: string, extra: Partial<OpenedTab> = {}): OpenedTab => ({
  name: fullPath.slice(1) || 'index',
  fullPath,
  params: {},
  query: {},
  meta: { title: `route.${fullPath.slice(1)}`, closable: true, cache: false },
  ...extra,
});

const HOME = tab('/admin-home', { meta: { title: 'route.admin-home', closable: false, cache: false } });
const paths = (tabs: readonly OpenedTab[]) => tabs.map((open) => open.fullPath);

/** A signed-in store with the home tab and the given tabs opened in order. */
const started = (...opened: string[]) => {
  localStorage.clear();
  const store = createTabsStore();
  store.getState().start('1', HOME, () => true);
  for (const path of opened) store.getState().open(tab(path));
  return store;
};

describe('tab store', () => {
  beforeEach(() => localStorage.clear());

  it('adds a tab for a new route and updates the tab with the same fullPath', () => {
    const store = started('/log', '/dashboard');
    store.getState().open(tab('/log', { query: { level: 'error' } }));
    expect(paths(store.getState().tabs)).toEqual(['/admin-home', '/log', '/dashboard']);
    expect(store.getState().tabs[1]?.query).toEqual({ level: 'error' });
  });

  it('keeps a title the page set itself when the tab opens again', () => {
    const store = started('/log');
    store.getState().setTitle('/log', 'My log');
    store.getState().open(tab('/log'));
    expect(store.getState().tabs[1]?.meta.title).toBe('My log');
  });

  it('moves from a closed current tab to the next one, else the previous one, else home', () => {
    const store = started('/a', '/b', '/c');
    expect(store.getState().close('/b', '/b')).toBe('/c');
    expect(store.getState().close('/c', '/c')).toBe('/a');
    expect(store.getState().close('/a', '/a')).toBe('/admin-home');
    expect(paths(store.getState().tabs)).toEqual(['/admin-home']);
  });

  it('stays when a tab other than the current one closes, and never closes the home tab', () => {
    const store = started('/a', '/b');
    expect(store.getState().close('/a', '/b')).toBeUndefined();
    expect(store.getState().close('/admin-home', '/b')).toBeUndefined();
    expect(paths(store.getState().tabs)).toEqual(['/admin-home', '/b']);
  });

  it('closes left, right and others keeping the first tab and the chosen one', () => {
    const left = started('/a', '/b', '/c');
    expect(left.getState().closeMany('left', '/b', '/a')).toBe('/b');
    expect(paths(left.getState().tabs)).toEqual(['/admin-home', '/b', '/c']);

    const right = started('/a', '/b', '/c');
    expect(right.getState().closeMany('right', '/b', '/a')).toBeUndefined();
    expect(paths(right.getState().tabs)).toEqual(['/admin-home', '/a', '/b']);

    const others = started('/a', '/b', '/c');
    expect(others.getState().closeMany('others', '/b', '/c')).toBe('/b');
    expect(paths(others.getState().tabs)).toEqual(['/admin-home', '/b']);
  });

  it('closes all but the first tab and goes to the index', () => {
    const store = started('/a', '/b');
    expect(store.getState().closeMany('all', '/b', '/b')).toBe(INDEX_PATH);
    expect(paths(store.getState().tabs)).toEqual(['/admin-home']);
  });

  it('reorders by drag and keeps the first tab first', () => {
    const store = started('/a', '/b', '/c');
    store.getState().move('/c', '/a');
    expect(paths(store.getState().tabs)).toEqual(['/admin-home', '/c', '/a', '/b']);
    store.getState().move('/a', '/admin-home');
    expect(paths(store.getState().tabs)).toEqual(['/admin-home', '/c', '/a', '/b']);
  });

  it('saves the tabs per user and restores them, dropping unknown or forbidden routes', () => {
    started('/log', '/sys/setting', '/gone');
    expect(JSON.parse(localStorage.getItem(tabsStorageKey('1')) ?? '[]')).toHaveLength(4);
    const next = createTabsStore();
    next.getState().start('1', HOME, (saved) => saved.fullPath === '/log');
    expect(paths(next.getState().tabs)).toEqual(['/admin-home', '/log']);
    const other = createTabsStore();
    other.getState().start('2', HOME, () => true);
    expect(paths(other.getState().tabs)).toEqual(['/admin-home']);
  });

  it('ignores stored entries that are not tabs', () => {
    localStorage.setItem(tabsStorageKey('1'), JSON.stringify([{ fullPath: '//evil.example' }, tab('/log'), 7]));
    const store = createTabsStore();
    store.getState().start('1', HOME, () => true);
    expect(paths(store.getState().tabs)).toEqual(['/admin-home', '/log']);
  });

  it('forgets the tabs in memory on sign-out but keeps the saved copy', () => {
    const store = started('/log');
    store.getState().stop();
    expect(store.getState().tabs).toEqual([]);
    expect(JSON.parse(localStorage.getItem(tabsStorageKey('1')) ?? '[]')).toHaveLength(2);
  });
});
