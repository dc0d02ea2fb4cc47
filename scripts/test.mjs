// `npm test`: the whole suite CI runs. Each stage runs even if an earlier one failed, so one run
// shows every problem; the closing line counts the tests of all Vitest projects.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const results = join(process.cwd(), '.test-results');
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

const npm = process.env.npm_execpath;
const run = (label, command, args) => {
  console.log(`\n=== ${label}`);
  const started = Date.now();
  const { status } = spawnSync(command, args, { stdio: 'inherit' });
  console.log(
    `=== ${label}: ${status === 0 ? 'ok' : `failed (exit ${status})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return status === 0;
};
const npmRun = (script) => (npm ? [process.execPath, [npm, 'run', script]] : ['npm', ['run', script]]);
const vitest = (label, projects, extra = []) =>
  run(label, process.execPath, [
    join(process.cwd(), 'node_modules/vitest/vitest.mjs'),
    'run',
    ...projects.flatMap((p) => ['--project', p]),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${join(results, `${label}.json`)}`,
    ...extra,
  ]);

const stages = [
  ['lint', () => run('lint', ...npmRun('lint'))],
  ['typecheck', () => run('typecheck', ...npmRun('typecheck'))],
  ['unit', () => vitest('unit', ['unit', 'dashboard'])],
  ['edge', () => vitest('edge', ['edge'], ['--passWithNoTests'])],
  ['build', () => run('build', ...npmRun('build'))],
  ['e2e', () => vitest('e2e', ['e2e'])],
];

function firstLines(text = '') {
  return text.split('\n').slice(0, 6).join('\n    ').slice(0, 1200);
}

const failedStages = stages.filter(([, stage]) => !stage()).map(([name]) => name);

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
