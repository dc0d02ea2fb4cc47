import { describe, expect, it } from 'vitest';
import { loginHref, safeRedirect, stripBasename } from './navigation.ts';

describe('navigation helpers', () => {
  it('remember the full path in the login redirect', () => {
    expect(loginHref('/site/list')).toBe('/login?redirect=%2Fsite%2Flist');
    expect(loginHref('/site/list?page=2')).toBe('/login?redirect=%2Fsite%2Flist%3Fpage%3D2');
    expect(loginHref('/')).toBe('/login');
  });

  it('accept only redirects inside the app', () => {
    expect(safeRedirect('/site/list')).toBe('/site/list');
    expect(safeRedirect('//evil.example')).toBeNull();
    expect(safeRedirect('/\\evil.example')).toBeNull();
    expect(safeRedirect('https://evil.example')).toBeNull();
    expect(safeRedirect(null)).toBeNull();
  });

  it('strip the /dashboard prefix', () => {
    expect(stripBasename('/dashboard/site/list')).toBe('/site/list');
    expect(stripBasename('/dashboard')).toBe('/');
    expect(stripBasename('/dashboards')).toBe('/dashboards');
  });
});
