import { describe, expect, it } from 'vitest';
import { chunkCycle, chunkName } from './firstLoadChunks.ts';

describe('first-load chunks', () => {
  it('names a chunk after the screens that run its modules, what the entry imports all in one', () => {
    expect(chunkName(['console'])).toBe('console');
    expect(chunkName(['console', 'login', 'register'])).toBe('console-login-register');
    expect(chunkName(['main', 'console', 'login'])).toBe('framework');
  });

  it('puts what a screen inside the console shares with the console in the console chunk', () => {
    expect(chunkName(['console', 'table', 'chart'])).toBe('console');
    expect(chunkName(['table', 'register'])).toBe('table-register');
  });

  it('finds a cycle of imports through a grouped chunk, and none in a one-way graph', () => {
    const chunk = (name: string, imports: string[]) => ({ name, fileName: `${name}.js`, imports });
    const oneWay = [chunk('console', ['framework.js']), chunk('framework', []), chunk('page', ['console.js'])];
    expect(chunkCycle(oneWay, new Set(['console', 'framework']))).toBeNull();
    const cycle = [chunk('console', ['shared.js']), chunk('shared', ['console.js'])];
    expect(chunkCycle(cycle, new Set(['console']))).toEqual(['console.js', 'shared.js', 'console.js']);
  });
});
