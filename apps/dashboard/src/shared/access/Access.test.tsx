// @vitest-environment jsdom
import { PERMISSIONS, type User } from '@rampart/contracts';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { useSession } from '../session/session.ts';
import { Access } from './Access.tsx';

const user = (access: string[]): User => ({
  id: 3,
  account: 'carol',
  username: 'carol',
  name: '',
  email: '',
  phone: '',
  qq: '',
  type: 1,
  access,
  group: null,
  balance: 0,
  status: 'enabled',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
});

const render = (required: string[] | undefined) => {
  const container = document.createElement('div');
  const root = createRoot(container);
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  act(() =>
    root.render(
      <Access required={required} fallback={<i>no</i>}>
        <b>yes</b>
      </Access>,
    ),
  );
  const text = container.textContent;
  act(() => root.unmount());
  return text;
};

describe('access check', () => {
  afterEach(() => useSession.getState().clear());

  it('removes the element unless the access list holds one of the required entries', () => {
    useSession.setState({ user: user([PERMISSIONS.adminNode]) });
    expect(render([PERMISSIONS.adminSys])).toBe('no');
    expect(render([PERMISSIONS.adminSys, PERMISSIONS.adminNode])).toBe('yes');
  });

  it('shows elements that need nothing to everyone, and nothing else to an empty access list', () => {
    useSession.setState({ user: user([]) });
    expect(render(undefined)).toBe('yes');
    expect(render([])).toBe('yes');
    expect(render([PERMISSIONS.adminNode])).toBe('no');
  });

  it('allows nothing that needs access without a signed-in user', () => {
    expect(render([PERMISSIONS.adminNode])).toBe('no');
  });
});
