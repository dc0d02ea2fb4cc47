// `npm run policies`: builds the master on a throw-away SQLite database, reads the policy of every
// route from its OpenAPI document and writes the README's route policy table (`--print`: prints it).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.ts';
import { readConfig } from '../src/config.ts';
import { type PolicyDocument, policyTable, writeReadmeTable } from '../src/plugins/route-policy-table.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'rampart-policies-'));
try {
  const app = await buildApp(readConfig({ RAMPART_DATA_DIR: dataDir, RAMPART_ADMIN_PASSWORD: 'unused-password-1' }), {
    logger: false,
    background: false,
  });
  const document = (await app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as PolicyDocument;
  await app.close();
  if (process.argv.includes('--print')) console.log(policyTable(document));
  else {
    const readme = join(import.meta.dirname, '../../../README.md');
    writeReadmeTable(readme, document);
    console.log(`wrote the route policy table into ${readme}`);
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
