import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_LOAD_TIMEOUT_MS, ChunkLoadError, withChunkTimeout } from './chunkTimeout.ts';

describe('withChunkTimeout', () => {
  afterEach(() => vi.useRealTimers());

  it('fails a page chunk that takes over 120000 ms', async () => {
    vi.useFakeTimers();
    const load = withChunkTimeout(() => new Promise<never>(() => undefined));
    const loading = load();
    const settled = expect(loading).rejects.toBeInstanceOf(ChunkLoadError);
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS);
    await settled;
  });

  it('passes a module through and marks a failed import as a chunk error', async () => {
    await expect(withChunkTimeout(async () => ({ Component: 'page' }))()).resolves.toEqual({ Component: 'page' });
    const failed = withChunkTimeout(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
    await expect(failed()).rejects.toMatchObject({ name: 'ChunkLoadError', message: /Failed to fetch/ });
  });
});
