import { buildApp } from '../app.ts';
import { readConfig } from '../config.ts';
import type { Dialect } from '../db/database.ts';
import { type EventStore, openEventStore } from '../db/events.ts';
import type { App } from '../http.ts';
import { hashPassword } from '../modules/auth/passwords.ts';
import type { SmsProvider } from '../modules/messages/messenger.ts';
import type { WebhookOptions } from '../modules/messages/webhook-delivery.ts';
import { saveSetting } from '../modules/settings/settings.service.ts';
import { insertUser } from '../modules/users/users.repository.ts';
import { createTestDatabase, type TestDatabase } from './databases.ts';
import { type FakeAliyunSms, startFakeAliyunSms } from './fake-aliyun-sms.ts';
import { type SmtpSink, startSmtpSink } from './smtp-sink.ts';

export const ADMIN_PASSWORD = 'admin-secret-1';

export interface CallResult {
  status: number;
  body: { code: number | string; msg: string; data: unknown };
  headers: Record<string, unknown>;
}

export interface TestApp {
  app: App;
  database: TestDatabase;
  /** The app's logs store (the logs database, or ClickHouse when the env names one), for checks. */
  events: EventStore;
  call(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    options?: { token?: string; body?: unknown },
  ): Promise<CallResult>;
  /** The mail server and SMS provider codes go to (saved in /sys/setting); absent with `codeChannels: false`. */
  codeChannels: CodeChannelPeers | undefined;
  /** Signs in through POST /v1/login and returns the token. */
  login(account: string, password: string): Promise<string>;
  close(): Promise<void>;
}

export async function startTestApp(
  target: { dialect: Dialect; url?: string },
  options: {
    env?: Record<string, string>;
    sms?: SmsProvider;
    background?: boolean;
    webhooks?: WebhookOptions;
    /** Customers need a package for sites and streams (`require_package`); off unless a test is about it. */
    requirePackage?: boolean;
    /**
     * Domains reach the edges only once proved (`domain_proof`, on for a new installation); off
     * unless a test is about it, so that the tests of everything else see their sites served.
     */
    domainProof?: boolean;
    /**
     * A mail server and an Aliyun SMS provider on loopback are saved in /sys/setting, so email and
     * phone codes are offered and really delivered (and logged, which `latestCode` reads); false:
     * neither is set up.
     */
    codeChannels?: boolean;
  } = {},
): Promise<TestApp> {
  const database = await createTestDatabase(target, { migrated: true });
  if (options.requirePackage !== true) await saveSetting(database.db, 'require_package', false);
  // Seeded before the first admin is made, which then leaves it as it is (first-admin.ts).
  if (options.domainProof !== true) await saveSetting(database.db, 'domain_proof', false);
  const codeChannels = options.codeChannels !== false ? await startCodeChannels(database.db) : undefined;
  const config = readConfig({
    RAMPART_DATA_DIR: database.dataDir,
    RAMPART_ADMIN_PASSWORD: ADMIN_PASSWORD,
    ...options.env,
  });
  // One logs store for the app and the test's checks: ClickHouse's tables are made once.
  const events = await openEventStore(config.logsUrl, database.logs);
  const app = await buildApp(config, {
    logger: false,
    database,
    events,
    ...(options.sms && { sms: options.sms }),
    ...(options.background !== undefined && { background: options.background }),
    ...(options.webhooks && { webhooks: options.webhooks }),
  });
  const call: TestApp['call'] = async (method, url, { token, body } = {}) => {
    const response = await app.inject({
      method,
      url,
      headers: token ? { 'access-token': token } : {},
      ...(body !== undefined && { payload: body as object }),
    });
    return { status: response.statusCode, body: response.json(), headers: response.headers };
  };
  return {
    app,
    database,
    events,
    call,
    codeChannels,
    async login(account, password) {
      const result = await call('POST', '/v1/login', { body: { account, password } });
      if (result.body.code !== 0) throw new Error(`login failed: ${result.body.msg}`);
      return (result.body.data as { access_token: string }).access_token;
    },
    async close() {
      await app.close();
      if (events.kind === 'clickhouse') {
        const { client, database: name } = events.clickhouse;
        await client.command({ query: `DROP DATABASE IF EXISTS ${name}` });
      }
      await events.close();
      await database.dispose();
      await codeChannels?.close();
    },
  };
}

export interface CodeChannelPeers {
  smtp: SmtpSink;
  sms: FakeAliyunSms;
  close(): Promise<void>;
}

/** The code template of the loopback SMS provider, and the key it knows. */
export const TEST_SMS = {
  accessKeyId: 'test-key',
  secret: 'test-secret',
  signName: 'Rampart',
  templateCode: 'SMS_0001',
};

/** A mail server and an SMS provider on loopback, saved in /sys/setting as an operator would. */
async function startCodeChannels(db: TestDatabase['db']): Promise<CodeChannelPeers> {
  const [smtp, sms] = await Promise.all([
    startSmtpSink(),
    startFakeAliyunSms({ [TEST_SMS.accessKeyId]: TEST_SMS.secret }, TEST_SMS),
  ]);
  await saveSetting(db, 'smtp_host', smtp.host);
  await saveSetting(db, 'smtp_port', smtp.port);
  await saveSetting(db, 'sms_provider', 'aliyun');
  await saveSetting(db, 'sms_endpoint', sms.url);
  await saveSetting(db, 'sms_access_key_id', TEST_SMS.accessKeyId);
  await saveSetting(db, 'sms_secret', TEST_SMS.secret);
  await saveSetting(db, 'sms_sign_name', TEST_SMS.signName);
  await saveSetting(db, 'sms_template_code', TEST_SMS.templateCode);
  return {
    smtp,
    sms,
    close: async () => {
      await Promise.all([smtp.close(), sms.close()]);
    },
  };
}

/** The code in the newest message to a target, as an admin reads it from GET /v1/log/msg-send. */
export async function latestCode(test: TestApp, target: string): Promise<string> {
  const token = await test.login('admin', ADMIN_PASSWORD);
  const result = await test.call('GET', '/v1/log/msg-send?page=1&limit=50', { token });
  const list = (result.body.data as { list: { target: string; body: string }[] }).list;
  const message = list.find((entry) => entry.target === target);
  const code = message?.body.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code sent to ${target}`);
  return code;
}

/** A signed-in ordinary user (type 2), created directly in the database. */
export async function addUser(test: TestApp, username: string): Promise<string> {
  await insertUser(
    test.database.db,
    { username, passwordHash: await hashPassword(`${username}-pass`), type: 2, access: [] },
    Date.now(),
  );
  return test.login(username, `${username}-pass`);
}

export { HOSTILE_VALUES } from '@rampart/contracts/testing';
