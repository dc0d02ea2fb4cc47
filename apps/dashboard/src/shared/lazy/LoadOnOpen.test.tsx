// @vitest-environment jsdom
import { act, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it, vi } from 'vitest';
import { LoadOnOpen } from './LoadOnOpen.tsx';

describe('LoadOnOpen', () => {
  it('renders nothing until the first open, then keeps its children mounted while closed', () => {
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
    const mounted = vi.fn();
    const Dialog = ({ open }: { open: boolean }) => {
      useEffect(mounted, []);
      return <p>{open ? 'open' : 'closed'}</p>;
    };
    const container = document.createElement('div');
    const root = createRoot(container);
    const render = (open: boolean) =>
      act(() =>
        root.render(
          <LoadOnOpen open={open}>
            <Dialog open={open} />
          </LoadOnOpen>,
        ),
      );
    render(false);
    expect(container.textContent).toBe('');
    render(true);
    expect(container.textContent).toBe('open');
    render(false);
    expect(container.textContent).toBe('closed');
    expect(mounted).toHaveBeenCalledTimes(1);
    act(() => root.unmount());
  });
});
