// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../shared/http/apiError.ts';
import { type LiveQuote, useLiveQuote } from './useLiveQuote.ts';

describe('useLiveQuote', () => {
  let root: Root;
  let seen: LiveQuote<string> | undefined;
  const asked: string[] = [];
  const aborted: string[] = [];
  const ask = (key: string) => (signal: AbortSignal) => {
    asked.push(key);
    signal.addEventListener('abort', () => aborted.push(key));
    return key === 'bad'
      ? Promise.reject(new ApiError('invalid_param', 'coupon: BAD1 is disabled', 400, '/v1/user-packages'))
      : Promise.resolve(`price for ${key}`);
  };
  const Probe = ({ quoteKey }: { quoteKey: string | null }) => {
    seen = useLiveQuote(quoteKey, ask(quoteKey ?? ''), 100);
    return null;
  };
  const show = (quoteKey: string | null) => act(() => root.render(<Probe quoteKey={quoteKey} />));
  const wait = (ms: number) =>
    act(async () => {
      await vi.advanceTimersByTimeAsync(ms);
    });

  beforeEach(() => {
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
    vi.useFakeTimers();
    asked.length = 0;
    aborted.length = 0;
    root = createRoot(document.createElement('div'));
  });
  afterEach(() => {
    act(() => root.unmount());
    vi.useRealTimers();
  });

  it('asks once after the changes stop, for the last key only', async () => {
    show('a');
    await wait(50);
    show('ab');
    await wait(50);
    show('abc');
    expect(asked).toEqual([]);
    expect(seen?.loading).toBe(true);
    await wait(100);
    expect(asked).toEqual(['abc']);
    expect(seen).toMatchObject({ quote: 'price for abc', loading: false, error: undefined });
  });

  it('keeps the last price while the next loads, and drops an error when the key changes', async () => {
    show('one');
    await wait(100);
    show('bad');
    expect(seen?.quote).toBe('price for one');
    await wait(100);
    expect(seen?.error?.message).toBe('coupon: BAD1 is disabled');
    expect(seen?.quote).toBeUndefined();
    show('two');
    expect(seen?.error).toBeUndefined();
    await wait(100);
    expect(seen?.quote).toBe('price for two');
  });

  it('asks nothing for a form that cannot be quoted, and cancels a call that a change overtook', async () => {
    show(null);
    await wait(200);
    expect(asked).toEqual([]);
    expect(seen?.loading).toBe(false);
    show('slow');
    await wait(100);
    show('fast');
    expect(aborted).toEqual(['slow']);
  });
});
