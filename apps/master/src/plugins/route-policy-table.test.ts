import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../test/databases.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';
import { type PolicyDocument, policyTable, tableIn } from './route-policy-table.ts';

const sqlite = DIALECTS.filter((target) => target.dialect === 'sqlite');

describe.each(sqlite)('the README route policy table', (target) => {
  let test: TestApp;
  let document: PolicyDocument;
  beforeAll(async () => {
    test = await startTestApp(target, { background: false });
    document = (await test.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as PolicyDocument;
  });
  afterAll(async () => {
    await test?.close();
  });

  it('is the one the routes declare (run `npm run policies` after changing a policy)', () => {
    const readme = readFileSync(join(import.meta.dirname, '../../../../README.md'), 'utf8');
    expect(tableIn(readme)).toBe(policyTable(document));
  });

  it('has a row for every operation of the document', () => {
    const operations = Object.values(document.paths).flatMap((byMethod) => Object.values(byMethod));
    expect(operations.length).toBeGreaterThan(250);
    expect(operations.filter((operation) => !operation['x-policy'])).toEqual([]);
  });
});
