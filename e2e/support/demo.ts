import { ALL_ADMIN_PERMISSIONS } from '@rampart/contracts';
import { adminToken, callApi, login, type RegisteredUser, registerUser } from './api.ts';
import { setUserRole } from './database.ts';
import type { RunningMaster } from './master.ts';
import type { PageParams, Viewer } from './page-check.ts';

/**
 * A master with something on every page: a package group and a package on sale, a customer who
 * recharged, bought the package and has a site and a stream, a line group on a CNAME domain, and a
 * sub-admin holding a few codes. Made through the API, as an operator and a customer would.
 */

export interface DemoRole {
  name: 'admin' | 'sub-admin' | 'customer';
  token: string;
  viewer: Viewer;
}

export interface Demo {
  admin: DemoRole;
  subAdmin: DemoRole;
  customer: DemoRole;
  params: PageParams;
  /** What the set-up typed: shown as typed in either language. */
  data: string[];
}

export const DEMO = {
  group: 'Web',
  packageName: 'Starter',
  customer: 'carol',
  subAdmin: 'sam',
  domain: 'shop.demo-rampart.test',
  cnameDomain: 'cdn-demo.test',
  lineGroup: 'main',
} as const;

/** The codes of the sub-admin: one area of each kind (a list, a settings form, a money page). */
export const SUB_ADMIN_CODES = ['admin:node', 'admin:package', 'admin:finance'] as const;

/**
 * A customer registered as the register page does it: with an email code when the master can send
 * mail, without one when it cannot (then registration asks for none).
 */
export async function registerCustomer(baseUrl: string, admin: string, username: string): Promise<RegisteredUser> {
  try {
    return await registerUser(baseUrl, admin, username);
  } catch (error) {
    if (!String(error).includes('channel_unavailable')) throw error;
  }
  const password = `${username}-Pass-1`;
  const user = await callApi<{ id: number; access_token: string }>(baseUrl, 'POST', '/v1/user', {
    body: { username, password, email: `${username}@example.com`, accept_agreement: true },
  });
  return { id: user.id, account: username, password, token: user.access_token };
}

export async function seedDemo(master: RunningMaster): Promise<Demo> {
  const { baseUrl, dataDir } = master;
  const admin = await adminToken(baseUrl, master.adminPassword);
  const api = <T>(method: string, path: string, token: string, body?: unknown) =>
    callApi<T>(baseUrl, method, path, { token, ...(body !== undefined && { body }) });

  const group = await api<{ id: number }>('POST', '/v1/package-groups', admin, {
    name: DEMO.group,
    sort: 1,
    description: 'Sites and streams',
  });
  const starter = await api<{ id: number }>('POST', '/v1/packages', admin, {
    name: DEMO.packageName,
    group_id: group.id,
    price_month: 1000,
    price_year: 10000,
    on_sale: true,
    traffic_gb: 100,
    max_sites: 5,
    max_domains: 10,
    max_streams: 2,
    max_ports: 4,
    https: true,
  });
  await api('POST', '/v1/cname-domains', admin, { domain: DEMO.cnameDomain, is_default: true });
  const lineGroup = await api<{ id: number }>('POST', '/v1/node-groups', admin, {
    name: DEMO.lineGroup,
    host: 'edge',
    is_default: true,
  });

  const carol = await registerCustomer(baseUrl, admin, DEMO.customer);
  await api('POST', `/v1/user/${carol.id}/recharge`, admin, { amount: 5000, description: 'welcome credit' });
  await api('POST', '/v1/user-packages', carol.token, { package_id: starter.id });
  const site = await api<{ id: number }>('POST', '/v1/sites', carol.token, {
    domains: [DEMO.domain],
    origins: [{ address: '127.0.0.1', port: 8080, weight: 1, backup: false }],
  });
  const stream = await api<{ id: number }>('POST', '/v1/streams', carol.token, {
    listen_port: 15353,
    protocol: 'tcp',
    origins: [{ address: '10.0.0.53', port: 3306, weight: 1, backup: false }],
  });

  const sam = await registerCustomer(baseUrl, admin, DEMO.subAdmin);
  setUserRole(dataDir, sam.id, 1, SUB_ADMIN_CODES);
  const samToken = await login(baseUrl, sam.account, sam.password);

  return {
    admin: { name: 'admin', token: admin, viewer: { type: 1, access: ALL_ADMIN_PERMISSIONS } },
    subAdmin: { name: 'sub-admin', token: samToken, viewer: { type: 1, access: SUB_ADMIN_CODES } },
    customer: { name: 'customer', token: carol.token, viewer: { type: 2, access: [] } },
    params: { siteId: site.id, streamId: stream.id, lineGroupId: lineGroup.id },
    data: [
      DEMO.group,
      DEMO.packageName,
      DEMO.customer,
      DEMO.subAdmin,
      'admin',
      'Sites and streams',
      'welcome credit',
      `${DEMO.customer}@example.com`,
      `${DEMO.subAdmin}@example.com`,
      DEMO.lineGroup,
      // The root account's name, stored at install.
      'Administrator',
      // The default DNS line, stored with a name in each language and listed with both.
      'default',
      'Default',
      '默认',
    ],
  };
}
