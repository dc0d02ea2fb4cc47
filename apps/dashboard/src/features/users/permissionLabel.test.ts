import { ALL_ADMIN_PERMISSIONS } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../shared/i18n/locales/bundle.ts';
import { USERS_LOCALES } from './locales/bundle.ts';
import { permissionLabel } from './permissionLabel.ts';

describe('permission labels', () => {
  it.each(['en-US', 'zh-CN'] as const)('name every admin permission in %s, not its code', (language) => {
    const { t } = createI18n(COMMON_LOCALES, language, [USERS_LOCALES]);
    const labels = ALL_ADMIN_PERMISSIONS.map((code) => permissionLabel(t, code));
    for (const label of labels) expect(label).not.toMatch(/admin|:|^(node|config|package|finance|sys|user)$/);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('read "admin:node" as Fleet (nodes) and 节点', () => {
    expect(permissionLabel(createI18n(COMMON_LOCALES, 'en-US', [USERS_LOCALES]).t, 'admin:node')).toBe('Fleet (nodes)');
    expect(permissionLabel(createI18n(COMMON_LOCALES, 'zh-CN', [USERS_LOCALES]).t, 'admin:node')).toBe('节点');
  });

  it('fall back to the code for a permission it does not know', () => {
    expect(permissionLabel(createI18n(COMMON_LOCALES, 'en-US', [USERS_LOCALES]).t, 'admin:future')).toBe(
      'admin:future',
    );
  });
});
