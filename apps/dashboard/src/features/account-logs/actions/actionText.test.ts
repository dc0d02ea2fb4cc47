import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { actionName } from '../../../../../master/src/modules/audit/audit-entry.ts';
import { createI18n } from '../../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../../shared/i18n/locales/bundle.ts';
import { actionText } from './actionText.ts';
import { OP_LOG_ACTION_LOCALES } from './locales/bundle.ts';

const WRITES = ['POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Every action the master writes to the operation log: its audit hook names each write under /v1 with
 * actionName(method, route), and the README's route table is printed from the routes (a master test
 * fails when it is stale), so a new route shows up here.
 */
const masterActions = (): string[] => {
  const readme = readFileSync(new URL('../../../../../../README.md', import.meta.url), 'utf8');
  const actions = new Set<string>();
  for (const row of readme.split('\n').filter((line) => line.startsWith('| `/v1/'))) {
    const [, path = '', methods = ''] = row.split('|').map((cell) => cell.trim());
    const route = path.replaceAll('`', '').replace(/\{(\w+)\}/g, ':$1');
    for (const method of methods.split(',').map((each) => each.trim())) {
      if (WRITES.includes(method)) actions.add(actionName(method, route));
    }
  }
  return [...actions].sort();
};

describe('operation log actions in words', () => {
  const actions = masterActions();

  it('find the master’s write routes', () => {
    expect(actions.length).toBeGreaterThan(100);
    expect(actions).toContain('sites.create');
    expect(actions).toContain('user-groups.create');
  });

  it.each(['en-US', 'zh-CN'] as const)('name every action the master writes in %s', (language) => {
    const i18n = createI18n(COMMON_LOCALES, language, [OP_LOG_ACTION_LOCALES]);
    expect(actions.filter((action) => !actionText(i18n, action).known)).toEqual([]);
  });

  it('build the words from the resource and the verb', () => {
    const en = createI18n(COMMON_LOCALES, 'en-US', [OP_LOG_ACTION_LOCALES]);
    const zh = createI18n(COMMON_LOCALES, 'zh-CN', [OP_LOG_ACTION_LOCALES]);
    expect(actionText(en, 'sites.create').text).toBe('Created site');
    expect(actionText(zh, 'sites.create').text).toBe('创建网站');
    expect(actionText(en, 'user-groups.create').text).toBe('Created user group');
    expect(actionText(en, 'packages.delete').text).toBe('Deleted package');
    expect(actionText(en, 'user-package.upgrades.create').text).toBe('Created package upgrade');
    expect(actionText(en, 'configs.global-0-system-smtp.delete').text).toBe('Reset mail (SMTP) settings to defaults');
    expect(actionText(zh, 'session.sign-out').text).toBe('退出登录');
  });

  it('keep an action no table knows readable', () => {
    const en = createI18n(COMMON_LOCALES, 'en-US', [OP_LOG_ACTION_LOCALES]);
    expect(actionText(en, 'space-ships.create')).toEqual({ text: 'Created space ships', known: false });
    expect(actionText(en, 'space-ships.launch')).toEqual({ text: 'space ships: launch', known: false });
    expect(actionText(en, 'configs.global-0-new.update')).toEqual({
      text: 'Changed setting global-0-new',
      known: false,
    });
  });
});
