import type { Plugin, Rolldown } from 'vite';
import { staticUse } from './staticUse.ts';

/**
 * The pages a visit can start on, each with the modules its first screen imports statically: the
 * console's chrome with the home pages of admins and of users, and the pages outside the console;
 * then the home pages' table, certificate list and chart, which load after their first paint.
 */
const FIRST_SCREENS: Record<string, readonly string[]> = {
  main: ['/src/main.tsx'],
  console: [
    '/src/layout/ConsoleLayout.tsx',
    '/src/features/overview/AdminHomePage.tsx',
    '/src/features/overview/HomePage.tsx',
  ],
  table: ['/src/features/overview/TopSitesTable.tsx'],
  certs: ['/src/features/overview/ExpiringCerts.tsx'],
  chart: ['/src/features/usage/shared/DailyTrafficChart.tsx'],
  login: ['/src/features/auth/login/LoginPage.tsx'],
  register: ['/src/features/auth/register/RegisterPage.tsx'],
  reset: ['/src/features/auth/forget-password/ForgetPasswordPage.tsx'],
  errors: ['/src/features/errors/ErrorPages.tsx'],
};

/**
 * Screens only ever shown inside the console: what they share with it comes with the console. They
 * load after the console's first paint, so their chunks (named from `table`, `certs`, `chart`) are
 * outside its first-screen budget (bench/dashboard-size.ts).
 */
export const INSIDE_CONSOLE: ReadonlySet<string> = new Set(['table', 'certs', 'chart']);

/** The chunk of a module used by these screens. */
export const chunkName = (screens: readonly string[]): string => {
  // What main.tsx imports every page loads: one chunk, whichever pages use it.
  if (screens.includes('main')) return 'framework';
  const inConsole = screens.includes('console');
  return screens.filter((screen) => !(inConsole && INSIDE_CONSOLE.has(screen))).join('-');
};

/**
 * Fewer, larger chunks for the first load: left alone, the bundler cuts what the console's first
 * screen needs into some 90 files of a few kB, and over HTTP/1.1 (six connections) their round
 * trips, not their bytes, set the time to first paint. Each module that a first screen (above) runs
 * goes into one chunk per set of screens that run it, named after them (`console`,
 * `console-login-register-reset`, …), so a page still loads only code that it runs; what main.tsx
 * runs is one `framework` chunk. Modules of no first screen are left to the bundler.
 */
export function firstLoadChunks() {
  const chunkOf = new Map<string, string>();
  const plugin: Plugin = {
    name: 'rampart-first-load-chunks',
    apply: 'build',
    async buildEnd(error) {
      if (error) return;
      const users = new Map<string, string[]>();
      for (const [screen, roots] of Object.entries(FIRST_SCREENS))
        for (const id of await staticUse(this, roots)) users.set(id, [...(users.get(id) ?? []), screen]);
      chunkOf.clear();
      for (const [id, screens] of users) chunkOf.set(id, chunkName(screens));
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((item): item is Rolldown.OutputChunk => item.type === 'chunk');
      const cycle = chunkCycle(chunks, new Set(chunkOf.values()));
      if (cycle) this.error(`firstLoadChunks: chunks import one another in a cycle: ${cycle.join(' → ')}`);
    },
  };
  // A module's imports are used by the same screens or more, so each goes to its own set's chunk: the
  // chunks import one another in one direction only (fewer screens to more), never in a cycle.
  const groups = [{ name: (id: string) => chunkOf.get(id) ?? null, includeDependenciesRecursively: false }];
  return { plugin, groups };
}

/**
 * A cycle of static imports through one of the grouped chunks, if any: it would run a module before
 * one it needs (a grouped module taking a name the walk missed). Fails the build rather than the page.
 */
export function chunkCycle(
  chunks: readonly Pick<Rolldown.OutputChunk, 'name' | 'fileName' | 'imports'>[],
  groups: Set<string>,
): string[] | null {
  const imports = new Map(chunks.map((chunk) => [chunk.fileName, chunk.imports]));
  const path: string[] = [];
  const done = new Set<string>();
  const visit = (file: string): string[] | null => {
    const at = path.indexOf(file);
    if (at !== -1) return [...path.slice(at), file];
    if (done.has(file)) return null;
    path.push(file);
    for (const next of imports.get(file) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    done.add(file);
    return null;
  };
  for (const chunk of chunks) {
    if (!groups.has(chunk.name)) continue;
    const cycle = visit(chunk.fileName);
    if (cycle) return cycle;
  }
  return null;
}
