import { SECRET_SETTINGS, SYSTEM_SETTING_GROUPS } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { isHttpUrlOrEmpty, SETTING_FIELDS, SETTING_GROUPS, settingValues } from './settingFields.ts';

interface PropertySchema {
  minimum?: number;
  maximum?: number;
  maxLength?: number;
}

describe('the fields of /sys/setting', () => {
  it('edit every setting of every tab, with the ranges and lengths of its schema', () => {
    expect([...SETTING_GROUPS].sort()).toEqual(Object.keys(SYSTEM_SETTING_GROUPS).sort());
    for (const group of SETTING_GROUPS) {
      const properties = SYSTEM_SETTING_GROUPS[group].properties as Record<string, PropertySchema>;
      expect(SETTING_FIELDS[group].map((field) => field.name).sort(), group).toEqual(Object.keys(properties).sort());
      for (const field of SETTING_FIELDS[group]) {
        const schema = properties[field.name];
        if (field.kind === 'number')
          expect([field.min, field.max], field.name).toEqual([schema?.minimum, schema?.maximum]);
        if (field.kind === 'text') expect(field.max, field.name).toBe(schema?.maxLength);
        expect(field.kind === 'secret', field.name).toBe(SECRET_SETTINGS.includes(field.name));
      }
    }
  });

  it('send booleans, numbers and trimmed text whatever the form holds', () => {
    expect(
      settingValues('smtp', {
        smtp_host: ' mail.example.com ',
        smtp_port: '587',
        smtp_secure: undefined,
        smtp_username: undefined,
        smtp_password: '******',
        smtp_from: 'a@example.com',
      }),
    ).toEqual({
      smtp_host: 'mail.example.com',
      smtp_port: 587,
      smtp_secure: false,
      smtp_username: '',
      smtp_password: '******',
      smtp_from: 'a@example.com',
    });
  });

  it('accept only empty or http(s) links', () => {
    expect(isHttpUrlOrEmpty('')).toBe(true);
    expect(isHttpUrlOrEmpty('https://example.com/a')).toBe(true);
    expect(isHttpUrlOrEmpty('javascript:alert(1)')).toBe(false);
    expect(isHttpUrlOrEmpty('https://exa mple.com')).toBe(false);
  });
});
