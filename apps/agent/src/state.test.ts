import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StateStore } from './state.ts';

describe('StateStore', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rampart-state-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('starts empty, keeps what is written, mode 0600', async () => {
    const path = join(dir, 'state.json');
    const store = new StateStore(path);
    expect(await store.load()).toEqual({ done_jobs: [], unsent_results: [] });
    await store.update((s) => {
      s.node_id = 4;
      s.credential = 'secret';
      s.done_jobs.push(1, 2);
    });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const again = new StateStore(path);
    expect(await again.load()).toMatchObject({ node_id: 4, credential: 'secret', done_jobs: [1, 2] });
    expect(JSON.parse(await readFile(path, 'utf8')).credential).toBe('secret');
  });

  it('remembers a bounded number of finished jobs', async () => {
    const store = new StateStore(join(dir, 'state.json'));
    await store.load();
    await store.update((s) => {
      s.done_jobs = Array.from({ length: 10_005 }, (_, i) => i);
    });
    expect(store.state.done_jobs).toHaveLength(10_000);
    expect(store.state.done_jobs[0]).toBe(5);
  });
});
