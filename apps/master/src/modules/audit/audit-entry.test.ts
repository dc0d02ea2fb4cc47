import { describe, expect, it } from 'vitest';
import { actionName, MASK, maskSecrets, targetIds } from './audit-entry.ts';

describe('operation log entries', () => {
  it('mask secrets by field name at any depth, and keep flags and ids named alike', () => {
    const body = {
      name: 'shop',
      password: 'hunter22',
      old_password: 'hunter11',
      settings: { dns: { secret_key: 'abc', access_token: 'tok', key_id: 'k1' }, key_pem: 'PEM' },
      allow_private: true,
      list: [{ api_key: 'x' }],
    };
    expect(maskSecrets(body)).toEqual({
      name: 'shop',
      password: MASK,
      old_password: MASK,
      settings: { dns: { secret_key: MASK, access_token: MASK, key_id: 'k1' }, key_pem: MASK },
      allow_private: true,
      list: [{ api_key: MASK }],
    });
  });

  it('mask fields their schema marks write-only or password, whatever their name', () => {
    const schema = {
      type: 'object',
      properties: { sign: { type: 'string', writeOnly: true }, login: { type: 'string', format: 'password' } },
    };
    expect(maskSecrets({ sign: 's', login: 'l', plain: 'p' }, schema)).toEqual({ sign: MASK, login: MASK, plain: 'p' });
  });

  it('cut long text and long lists short', () => {
    const masked = maskSecrets({ pem: 'a'.repeat(2000), ids: Array.from({ length: 150 }, (_, i) => i) }) as {
      pem: string;
      ids: unknown[];
    };
    expect(masked.pem).toMatch(/… \(2000 characters\)$/);
    expect(masked.ids).toHaveLength(101);
    expect(masked.ids[100]).toBe('… 50 more');
  });

  it('name actions by resource and verb', () => {
    expect(actionName('PUT', '/v1/sites/:id')).toBe('sites.update');
    expect(actionName('POST', '/v1/user-package/:id/upgrades')).toBe('user-package.upgrades.create');
    expect(actionName('DELETE', '/v1/api-key')).toBe('api-key.delete');
    expect(actionName('DELETE', '/v1/common/auth')).toBe('session.sign-out');
  });

  it('find targets in path parameters, body ids and the id a create answered', () => {
    expect(targetIds({ id: '7' }, { ids: [1, 2, 'x y'] }, 9)).toEqual(['7', '1', '2', '9']);
    expect(targetIds({}, [1, 2], undefined)).toEqual([]);
  });
});
