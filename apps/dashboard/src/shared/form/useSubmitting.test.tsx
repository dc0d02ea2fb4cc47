// @vitest-environment jsdom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { useSubmitting } from './useSubmitting.ts';

describe('useSubmitting', () => {
  it('is saving while the work runs, and ends a failure (already shown) quietly', async () => {
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
    let hook: ReturnType<typeof useSubmitting> | undefined;
    const Probe = () => {
      hook = useSubmitting();
      return <p>{hook[0] ? 'saving' : 'idle'}</p>;
    };
    const container = document.createElement('div');
    const root = createRoot(container);
    act(() => root.render(<Probe />));
    expect(container.textContent).toBe('idle');

    let finish: (() => void) | undefined;
    let done: Promise<void> | undefined;
    act(() => {
      done = hook?.[1](() => new Promise<void>((resolve) => (finish = resolve)));
    });
    expect(container.textContent).toBe('saving');
    await act(async () => {
      finish?.();
      await done;
    });
    expect(container.textContent).toBe('idle');

    await act(async () => {
      await hook?.[1](async () => {
        throw new Error('refused');
      });
    });
    expect(container.textContent).toBe('idle');
    act(() => root.unmount());
  });
});
