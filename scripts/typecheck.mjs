// `npm run typecheck`: every TypeScript project, with TypeScript 7's native compiler (the
// `typescript-native` dev dependency; it checks the master in a third of TypeScript 6's time and
// uses every core, so the projects go one at a time). The `typescript` package (6) stays for its
// JavaScript API (scripts/import-cycles.mjs) and editors. Prints each project's errors and fails if
// any has.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const projects = [
  'apps/dashboard/tsconfig.json',
  'apps/master/tsconfig.json',
  'apps/agent/tsconfig.json',
  'e2e/tsconfig.json',
  'packages/contracts/tsconfig.json',
  'packages/cli/tsconfig.json',
  'bench/tsconfig.json',
];
const tsc = join(process.cwd(), 'node_modules/typescript-native/bin/tsc');
const parallel = Number(process.env.TYPECHECK_JOBS ?? 1);

const check = (project) =>
  new Promise((done) => {
    const started = Date.now();
    const child = spawn(process.execPath, [tsc, '-p', project], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(`${code === 0 ? 'ok' : 'FAILED'} ${project} (${seconds} s)`);
      if (output.trim()) console.log(output.trimEnd());
      done(code === 0);
    });
  });

const queue = [...projects];
const results = [];
await Promise.all(
  Array.from({ length: parallel }, async () => {
    for (let project = queue.shift(); project; project = queue.shift()) results.push(await check(project));
  }),
);
process.exit(results.every(Boolean) ? 0 : 1);
