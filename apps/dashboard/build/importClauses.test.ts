import { describe, expect, it } from 'vitest';
import { barrelExports, importClauses } from './importClauses.ts';

describe('import clauses', () => {
  it('reads the names each static import and re-export takes', () => {
    const code = [
      '"use client";',
      "import React, { useState as state, type FC } from 'react';",
      'import * as echarts from "echarts/core";',
      "import './style.css';",
      'import {',
      '  a,',
      '  b as c',
      "} from './multi.js'",
      "export { x as y } from './x.js';",
      "export * from './all.js';",
      '// import { hidden } from "./comment.js";',
      "const lazy = () => import('./lazy.js');",
    ].join('\n');
    expect(importClauses(code)).toEqual([
      { specifier: 'react', names: ['default', 'useState', 'FC'] },
      { specifier: 'echarts/core', names: '*' },
      { specifier: './multi.js', names: ['a', 'b'] },
      { specifier: './x.js', names: ['x'] },
      { specifier: './all.js', names: '*' },
      { specifier: './style.css', names: [] },
    ]);
  });

  it('reads a barrel of re-exports, or of imports exported again', () => {
    const reexports = barrelExports(
      "export { Trans } from './Trans.js';\nexport { Trans as TransWithoutContext } from './TransWithoutContext.js';\nexport * from './more.js';\nexport * as ns from './ns.js';",
    );
    expect(Object.fromEntries(reexports?.named ?? [])).toEqual({
      Trans: { specifier: './Trans.js', name: 'Trans' },
      TransWithoutContext: { specifier: './TransWithoutContext.js', name: 'Trans' },
      ns: { specifier: './ns.js', name: '*' },
    });
    expect(reexports?.stars).toEqual(['./more.js']);
    const imported = barrelExports(
      '"use client";\nimport { useQuery } from "./useQuery.js";\nimport Default from "./default.js";\nexport { useQuery, Default as Other };',
    );
    expect(Object.fromEntries(imported?.named ?? [])).toEqual({
      useQuery: { specifier: './useQuery.js', name: 'useQuery' },
      Other: { specifier: './default.js', name: 'default' },
    });
  });

  it('is no barrel when the module has code of its own', () => {
    expect(barrelExports("import { a } from './a.js';\nexport const b = a + 1;")).toBeNull();
    expect(barrelExports("import { a } from './a.js';\nconsole.log(a);\nexport { a };")).toBeNull();
    expect(barrelExports("import './a.js';\nimport { b } from './b.js';")).toBeNull();
    expect(barrelExports('')).toBeNull();
  });
});
