#!/usr/bin/env node
// rampart export | plan FILE | apply FILE: a customer's configuration kept as a file (in git) and
// applied from CI, through the master's GET /v1/export and POST /v1/import with an API key.
import { readFile, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import type { ImportPlan } from '@rampart/contracts';
import { planText } from './plan-text.ts';

const USAGE = `Usage:
  rampart export [--format yaml|json] [--out FILE]
  rampart plan FILE [--detailed-exitcode]
  rampart apply FILE [--yes]

Options:
  --url URL          the master, e.g. https://cdn.example.com (or RAMPART_URL)
  --api-key KEY      an API key with write scope for plan and apply (or RAMPART_API_KEY)
  --format FORMAT    export as yaml (default) or json
  --out FILE         write the export to FILE instead of standard output
  --yes              apply without asking
  --detailed-exitcode  plan exits 2 when there are changes, 0 when there are none
  -h, --help         this text

Exit status: 0 done, 1 an error (the message says which field of the document), 2 (plan with
--detailed-exitcode) changes to make.`;

class UsageError extends Error {}

interface Envelope<T> {
  code: number | string;
  msg: string;
  data: T;
}

function settings(values: { url?: string | undefined; 'api-key'?: string | undefined }) {
  const url = values.url ?? process.env.RAMPART_URL;
  const apiKey = values['api-key'] ?? process.env.RAMPART_API_KEY;
  if (!url) throw new UsageError('the master URL is missing: pass --url or set RAMPART_URL');
  if (!apiKey) throw new UsageError('the API key is missing: pass --api-key or set RAMPART_API_KEY');
  return { base: url.replace(/\/+$/, ''), apiKey };
}

type Master = ReturnType<typeof settings>;

async function call(master: Master, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Response> {
  try {
    return await fetch(`${master.base}${path}`, {
      method,
      headers: {
        'access-token': master.apiKey,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
  } catch (error) {
    throw new Error(`cannot reach ${master.base}: ${(error as Error).cause ?? (error as Error).message}`);
  }
}

/** The envelope's data, or the master's message as the error. */
async function answer<T>(response: Response): Promise<T> {
  const text = await response.text();
  let envelope: Envelope<T>;
  try {
    envelope = JSON.parse(text) as Envelope<T>;
  } catch {
    throw new Error(`the master answered ${response.status} with something that is not JSON`);
  }
  if (envelope.code !== 0) throw new Error(envelope.msg || `the master answered ${response.status}`);
  return envelope.data;
}

async function exportCommand(master: Master, format: string, out: string | undefined) {
  if (format !== 'yaml' && format !== 'json') throw new UsageError(`--format: must be yaml or json, not ${format}`);
  const response = await call(master, 'GET', `/v1/export?format=${format}`);
  if (!response.ok) {
    await answer(response);
    throw new Error(`the master answered ${response.status}`);
  }
  const text = await response.text();
  if (out) await writeFile(out, text);
  else process.stdout.write(text);
}

const importing = async (master: Master, document: string, dryRun: boolean) =>
  answer<ImportPlan>(await call(master, 'POST', '/v1/import', { document, dry_run: dryRun }));

async function readDocument(file: string | undefined) {
  if (!file) throw new UsageError('name the document file: rampart plan FILE');
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

async function confirmed(): Promise<boolean> {
  if (!process.stdin.isTTY) {
    throw new UsageError('apply asks before changing anything: pass --yes to apply without a terminal (in CI)');
  }
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return (await prompt.question('\nApply these changes? Only "yes" applies them: ')).trim() === 'yes';
  } finally {
    prompt.close();
  }
}

async function main(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      'api-key': { type: 'string' },
      format: { type: 'string', default: 'yaml' },
      out: { type: 'string' },
      yes: { type: 'boolean', default: false },
      'detailed-exitcode': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, file, ...extra] = positionals;
  if (values.help || command === undefined) {
    console.log(USAGE);
    return values.help ? 0 : 1;
  }
  if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
  switch (command) {
    case 'export':
      if (file !== undefined) throw new UsageError('export takes no file: use --out FILE');
      await exportCommand(settings(values), values.format, values.out);
      return 0;
    case 'plan': {
      const document = await readDocument(file);
      const plan = await importing(settings(values), document, true);
      console.log(planText(plan));
      return values['detailed-exitcode'] && plan.changes.length > 0 ? 2 : 0;
    }
    case 'apply': {
      const document = await readDocument(file);
      const master = settings(values);
      const plan = await importing(master, document, true);
      console.log(planText(plan));
      if (plan.changes.length === 0) return 0;
      if (!values.yes && !(await confirmed())) {
        console.log('Nothing applied.');
        return 1;
      }
      const applied = await importing(master, document, false);
      console.log(
        applied.applied
          ? `\nApplied ${applied.changes.length} change(s) at config version ${applied.config_version}.`
          : '\nNothing to apply: the configuration already matches the document.',
      );
      return 0;
    }
    default:
      throw new UsageError(`unknown command ${command}: use export, plan or apply`);
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`rampart: ${message}`);
  if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS'))
    console.error('Run rampart --help for the commands and options.');
  process.exitCode = 1;
}
