// `npm test`: the whole suite CI runs. Each stage runs even if an earlier one failed, so one run
// shows every problem; the closing line counts the tests of all Vitest projects.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const results = join(process.cwd(), '.test-results');
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

const npm = process.env.npm_execpath;
const seconds = (started) => ((Date.now() - started) / 1000).toFixed(1);

/**
 * Runs one stage. Its output goes to the terminal, or with `quiet` to `.test-results/LABEL.log`,
 * printed whole when the stage ends, so that two stages running side by side do not interleave.
 */
const run = (label, command, args, { quiet = false } = {}) =>
  new Promise((done) => {
    console.log(`\n=== ${label}${quiet ? ' (started beside another stage; its output follows when it ends)' : ''}`);
    const started = Date.now();
    const logPath = join(results, `${label}.log`);
    const child = spawn(command, args, { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    if (quiet) {
      const log = createWriteStream(logPath);
      child.stdout.pipe(log);
      child.stderr.pipe(log);
    }
    child.on('close', (status) => {
      if (quiet) console.log(`\n=== ${label} output\n${readFileSync(logPath, 'utf8')}`);
      console.log(`=== ${label}: ${status === 0 ? 'ok' : `failed (exit ${status})`} in ${seconds(started)} s`);
      done(status === 0);
    });
  });
const npmRun = (script) => (npm ? [process.execPath, [npm, 'run', script]] : ['npm', ['run', script]]);
const vitest = (label, projects, extra = [], options) =>
  run(
    label,
    process.execPath,
    [
      join(process.cwd(), 'node_modules/vitest/vitest.mjs'),
      'run',
      ...projects.flatMap((p) => ['--project', p]),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${join(results, `${label}.json`)}`,
      ...extra,
    ],
    options,
  );

/**
 * Each group's stages run one after the other; the groups of a step run side by side. The unit
 * stage keeps both cores busy, while the edge stage spends half its time waiting on nginx, agents
 * and timers: side by side they take about the unit stage's time instead of the sum.
 */
const steps = [
  [[['lint', () => run('lint', ...npmRun('lint'))]]],
  [[['typecheck', () => run('typecheck', ...npmRun('typecheck'))]]],
  [
    [['unit', () => vitest('unit', ['unit', 'dashboard'])]],
    [
      // The edge's nginx module (apps/agent/nginx): the edge tests run nginx with it when it builds.
      ['nginx-module', () => run('nginx-module', ...npmRun('build:nginx-module'), { quiet: true })],
      ['edge', () => vitest('edge', ['edge'], ['--passWithNoTests'], { quiet: true })],
      ['build', () => run('build', ...npmRun('build'), { quiet: true })],
    ],
  ],
  [[['e2e', () => vitest('e2e', ['e2e'])]]],
];

const runGroup = async (group) => {
  const failed = [];
  for (const [name, stage] of group) if (!(await stage())) failed.push(name);
  return failed;
};
const failedStages = [];
for (const groups of steps) {
  for (const failed of await Promise.all(groups.map(runGroup))) failedStages.push(...failed);
}

function firstLines(text = '') {
  return text.split('\n').slice(0, 6).join('\n    ').slice(0, 1200);
}

let passed = 0;
let failed = 0;
let skipped = 0;
// Failures are listed again at the very end, so the last lines of a long CI log name them.
const failures = [];
for (const label of ['unit', 'edge', 'e2e']) {
  try {
    const report = JSON.parse(readFileSync(join(results, `${label}.json`), 'utf8'));
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + report.numTodoTests;
    for (const file of report.testResults) {
      const path = file.name.replace(`${process.cwd()}/`, '');
      const tests = file.assertionResults.filter((test) => test.status === 'failed');
      for (const test of tests) {
        failures.push(`${label}: ${path} > ${test.fullName}\n    ${firstLines(test.failureMessages[0])}`);
      }
      if (tests.length === 0 && file.status === 'failed') {
        failures.push(`${label}: ${path}\n    ${firstLines(file.message)}`);
      }
    }
  } catch {
    // the stage did not produce a report; its failure is already counted below
  }
}
console.log('');
if (failures.length > 0) console.log(`Failed tests:\n${failures.join('\n')}\n`);
if (failedStages.length > 0) console.log(`Failed stages: ${failedStages.join(', ')}`);
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failedStages.length === 0 ? 0 : 1);
