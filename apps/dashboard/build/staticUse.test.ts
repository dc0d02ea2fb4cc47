import { describe, expect, it } from 'vitest';
import { staticUse } from './staticUse.ts';

/** A module graph as the bundler gives it: code, resolved imports and exports by id. */
const graph = (modules: Record<string, { code: string; imports?: string[]; exports?: string[] }>) => ({
  getModuleIds: () => Object.keys(modules)[Symbol.iterator](),
  getModuleInfo: (id: string) => {
    const module = modules[id];
    return module ? { code: module.code, importedIds: module.imports ?? [], exports: module.exports ?? [] } : null;
  },
  resolve: async (specifier: string) => (specifier.startsWith('/') && modules[specifier] ? { id: specifier } : null),
});

describe('static use', () => {
  const modules = {
    '/src/page.tsx': {
      code: "import { used } from '/barrel.js';\nimport '/side.js';",
      imports: ['/barrel.js', '/side.js'],
    },
    '/barrel.js': {
      code: "export { used } from '/used.js';\nexport { unused } from '/unused.js';\nexport * from '/star.js';",
      imports: ['/used.js', '/unused.js', '/star.js'],
    },
    '/used.js': {
      code: "import { helper } from '/helper.js';\nexport const used = helper;",
      imports: ['/helper.js'],
      exports: ['used'],
    },
    '/helper.js': { code: 'export const helper = 1;', exports: ['helper'] },
    '/unused.js': { code: 'export const unused = 2;', exports: ['unused'] },
    '/star.js': { code: 'export const other = 3;', exports: ['other'] },
    '/side.js': { code: 'window.x = 1;' },
  };

  it('follows through a barrel only the names taken from it', async () => {
    const used = await staticUse(graph(modules) as never, ['/src/page.tsx']);
    expect([...used].sort()).toEqual(['/barrel.js', '/helper.js', '/side.js', '/src/page.tsx', '/used.js']);
  });

  it('finds a name behind `export *`, and takes the whole barrel for a namespace import', async () => {
    const star = {
      ...modules,
      '/src/page.tsx': { code: "import { other } from '/barrel.js';", imports: ['/barrel.js'] },
    };
    expect([...(await staticUse(graph(star) as never, ['/src/page.tsx']))].sort()).toEqual([
      '/barrel.js',
      '/src/page.tsx',
      '/star.js',
    ]);
    const namespace = {
      ...modules,
      '/src/page.tsx': { code: "import * as all from '/barrel.js';", imports: ['/barrel.js'] },
    };
    expect(await staticUse(graph(namespace) as never, ['/src/page.tsx'])).toContain('/unused.js');
  });

  it('takes a whole barrel when a name is not found in it', async () => {
    const missing = {
      ...modules,
      '/src/page.tsx': { code: "import { nowhere } from '/barrel.js';", imports: ['/barrel.js'] },
    };
    expect(await staticUse(graph(missing) as never, ['/src/page.tsx'])).toContain('/unused.js');
  });
});
