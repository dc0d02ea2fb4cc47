import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
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

  it('gives each finding once, and gives the text read back to the disk in place, losing nothing appended', async () => {
    const path = join(dir, 'waf-audit.log');
    const first = `${entry('w1.1.aa', 'Enabled', 403, SQLI)}\n${entry('w1.1.bb', 'DetectionOnly', 200, SQLI)}\n`;
    await writeFile(path, first);
    const audit = new WafAudit(path, { cursorFile: join(dir, 'cursor.json'), releaseBytes: 1, keepBytes: 0 });
    await audit.read();
    expect(audit.take('w1.1.aa')).toMatch(/action=block/);
    expect(audit.take('w1.1.aa')).toBe(null);
    // ModSecurity appends to the same file at its end: the read part is a hole, the size stays.
    await appendFile(path, `${entry('w1.1.cc', 'Enabled', 403, SQLI)}\n`);
    const content = await readFile(path);
    expect(content.subarray(0, first.length).every((byte) => byte === 0)).toBe(true);
    expect(content.subarray(first.length).toString()).toContain('"w1.1.cc"');
    await audit.read();
    expect(audit.take('w1.1.bb')).toMatch(/action=detect/);
    expect(audit.take('w1.1.cc')).toMatch(/action=block/);
    await audit.close();
  });

  it('resumes after a restart where the text on disk starts, with the last entries kept', async () => {
    const path = join(dir, 'waf-audit.log');
    const cursorFile = join(dir, 'cursor.json');
    const second = `${entry('w1.1.bb', 'Enabled', 403, SQLI)}\n`;
    await writeFile(path, `${entry('w1.1.aa', 'Enabled', 403, SQLI)}\n`);
    const audit = new WafAudit(path, { cursorFile, releaseBytes: 1, keepBytes: second.length });
    await audit.read();
    await appendFile(path, second);
    await audit.read();
    await audit.close();
    const restarted = new WafAudit(path, { cursorFile, releaseBytes: 1, keepBytes: second.length });
    await restarted.read();
    // The first entry was given back (it was taken before the restart); the kept one is read again.
    expect(restarted.take('w1.1.aa')).toBe(null);
    expect(restarted.take('w1.1.bb')).toMatch(/action=block/);
    await restarted.close();
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
