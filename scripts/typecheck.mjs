// `npm run typecheck`: every TypeScript project, two at a time (each `tsc` is single-threaded and the
// projects do not depend on each other's output). Prints each project's errors and fails if any has.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const projects = [
  'apps/dashboard/tsconfig.json',
  'apps/master/tsconfig.json',
  'apps/agent/tsconfig.json',
  'e2e/tsconfig.json',
  'packages/contracts/tsconfig.json',
  'bench/tsconfig.json',
];
const tsc = join(process.cwd(), 'node_modules/typescript/bin/tsc');
const parallel = Number(process.env.TYPECHECK_JOBS ?? 2);

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
