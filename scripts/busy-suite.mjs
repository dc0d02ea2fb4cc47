// Runs `npm test` with both cores kept busy by other work, as CI's shared machine may be:
// `node scripts/busy-suite.mjs [runs]` (default 3). Each run starts one busy loop per core in worker
// threads (bounded: they stop when the run ends, and after RAMPART_HOG_MAX_S seconds at most), runs
// the suite, and prints how long it took and how it ended. Exits non-zero if any run failed.
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

const runs = Number(process.argv[2] ?? 3);
const maxSeconds = Number(process.env.RAMPART_HOG_MAX_S ?? 3600);
const hogSource = `
  const { workerData } = require('node:worker_threads');
  const until = Date.now() + workerData.maxMs;
  let x = 0;
  while (Date.now() < until) { for (let i = 0; i < 1e6; i++) x = (x * 31 + i) >>> 0; }
`;

const npm = process.env.npm_execpath;
const [command, args] = npm ? [process.execPath, [npm, 'test']] : ['npm', ['test']];
const outcomes = [];
for (let run = 1; run <= runs; run++) {
  const hogs = Array.from(
    { length: availableParallelism() },
    () => new Worker(hogSource, { eval: true, workerData: { maxMs: maxSeconds * 1000 } }),
  );
  const started = Date.now();
  console.log(`\n##### busy run ${run}/${runs}: ${hogs.length} busy loops beside npm test`);
  const { status } = spawnSync(command, args, { stdio: 'inherit' });
  await Promise.all(hogs.map((hog) => hog.terminate()));
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  outcomes.push(`run ${run}: ${status === 0 ? 'passed' : `failed (exit ${status})`} in ${seconds} s`);
  console.log(`##### ${outcomes.at(-1)}`);
}
console.log(`\n${outcomes.join('\n')}`);
process.exit(outcomes.every((line) => line.includes('passed')) ? 0 : 1);
