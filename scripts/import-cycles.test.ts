import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { findImportCycles, formatCycle, importGraph } from './import-cycles.mjs';

const options = {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowImportingTsExtensions: true,
};

let dir = '';
const fixture = (files: Record<string, string>) => {
  dir = mkdtempSync(join(tmpdir(), 'import-cycles-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return findImportCycles(
    importGraph(
      Object.keys(files).map((name) => join(dir, name)),
      options,
    ),
  );
};

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('import cycle check', () => {
  it('finds two files that import each other and prints the path', () => {
    const cycles = fixture({
      'a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n",
      'b.ts': "import { a } from './a.ts';\nexport const b = () => a;\n",
    });
    expect(cycles).toHaveLength(1);
    const [cycle] = cycles;
    expect(cycle && formatCycle(cycle.files, cycle.kinds, dir)).toBe('a.ts -> b.ts -> a.ts');
  });

  it('names a type-only or lazy step of a circle', () => {
    const cycles = fixture({
      'host.ts': "export const load = () => import('./panel.ts');\nexport const SECONDS = 3;\n",
      'panel.ts':
        "import type { Row } from './row.ts';\nimport { SECONDS } from './host.ts';\nexport const p = (r: Row) => r ?? SECONDS;\n",
      'row.ts': "import type { p } from './panel.ts';\nexport type Row = typeof p;\n",
    });
    expect(cycles.map(({ files, kinds }) => formatCycle(files, kinds, dir)).sort()).toEqual([
      'host.ts -import()-> panel.ts -> host.ts',
      'row.ts -type-> panel.ts -type-> row.ts',
    ]);
  });

  it('passes a graph without circles', () => {
    expect(
      fixture({
        'a.ts': "import { b } from './b.ts';\nexport const a = b;\n",
        'b.ts': 'export const b = 1;\n',
      }),
    ).toEqual([]);
  });
});
