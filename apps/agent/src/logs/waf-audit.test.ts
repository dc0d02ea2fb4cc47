import { appendFile, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WafAudit, wafFinding } from './waf-audit.ts';

/** An audit entry as ModSecurity v3 writes it (JSON format, parts A, H, Z), trimmed to what is read. */
const entry = (tx: string, engine: string, status: number, rules: Array<[string, string]>) =>
  JSON.stringify({
    transaction: {
      unique_id: tx,
      request: { method: 'GET', uri: '/?id=1' },
      response: { http_code: status },
      producer: { modsecurity: 'ModSecurity v3.0.9 (Linux)', secrules_engine: engine },
      messages: rules.map(([ruleId, message]) => ({ message, details: { ruleId, match: 'x', data: '' } })),
    },
  });

const SQLI: Array<[string, string]> = [
  ['942100', 'SQL Injection Attack Detected via libinjection'],
  ['942190', 'Detects MSSQL code execution'],
  ['949110', 'Inbound Anomaly Score Exceeded (Total Score: 10)'],
];

describe('WAF findings', () => {
  it('turns a blocked transaction into a block reason with its rules', () => {
    expect(wafFinding(entry('w1.7.0af3', 'Enabled', 403, SQLI))).toEqual({
      tx: 'w1.7.0af3',
      reason: 'kind=waf;action=block;detail=rules 942100,942190: SQL Injection Attack Detected via libinjection',
    });
  });

  it('says detect for detection-only transactions, and ignores those under the threshold or not ours', () => {
    expect(wafFinding(entry('w2.7.0af3', 'DetectionOnly', 200, SQLI))?.reason).toMatch(/^kind=waf;action=detect;/);
    expect(wafFinding(entry('w1.7.0af3', 'Enabled', 200, [['920350', 'Host header is a numeric IP address']]))).toBe(
      null,
    );
    expect(wafFinding(entry('0af3', 'Enabled', 403, SQLI))).toBe(null);
    expect(wafFinding('not json')).toBe(null);
  });

  it('keeps the reason printable, without ;, and within the log limit', () => {
    const long: Array<[string, string]> = [
      ['941100', `XSS;\u0000${'a'.repeat(400)}`],
      ['949110', 'over'],
    ];
    const reason = wafFinding(entry('w1.1.aa', 'Enabled', 403, long))!.reason;
    expect(reason.length).toBeLessThanOrEqual(256);
    expect(reason.split(';')).toHaveLength(3);
    expect(reason).toMatch(/^[\x20-\x7e]+$/);
  });
});

describe('the WAF audit log', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rampart-waf-audit-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('gives each finding once, and empties the file in place once it is large and read', async () => {
    const path = join(dir, 'waf-audit.log');
    await writeFile(
      path,
      `${entry('w1.1.aa', 'Enabled', 403, SQLI)}\n${entry('w1.1.bb', 'DetectionOnly', 200, SQLI)}\n`,
    );
    const audit = new WafAudit(path, { maxBytes: 100 });
    await audit.read();
    expect(audit.take('w1.1.aa')).toMatch(/action=block/);
    expect(audit.take('w1.1.aa')).toBe(null);
    expect((await stat(path)).size).toBe(0);
    // ModSecurity appends to the emptied file; the reader starts again from its top.
    await appendFile(path, `${entry('w1.1.cc', 'Enabled', 403, SQLI)}\n`);
    await audit.read();
    expect(audit.take('w1.1.bb')).toMatch(/action=detect/);
    expect(audit.take('w1.1.cc')).toMatch(/action=block/);
    await audit.close();
  });

  it('forgets the oldest findings beyond its bound', async () => {
    const path = join(dir, 'waf-audit.log');
    const lines = ['a1', 'b2', 'c3'].map((id) => entry(`w1.1.${id.replace(/\D/, '')}`, 'Enabled', 403, SQLI));
    await writeFile(path, `${lines.join('\n')}\n`);
    const audit = new WafAudit(path, { maxFindings: 2 });
    await audit.read();
    expect([audit.take('w1.1.1'), audit.take('w1.1.2'), audit.take('w1.1.3')].map(Boolean)).toEqual([
      false,
      true,
      true,
    ]);
    await audit.close();
  });
});
