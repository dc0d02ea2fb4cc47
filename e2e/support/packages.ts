import { adminToken, callApi, login, type RegisteredUser } from './api.ts';
import type { Suite } from './suite.ts';

/**
 * A customer (type 2) made by an admin through POST /v1/users, signed in. `exempt` sets the
 * account's `package_exempt` flag: it may create sites and streams without buying a package, which
 * the master otherwise requires.
 */
export const createCustomer = async (
  suite: Suite,
  username: string,
  { exempt = false }: { exempt?: boolean } = {},
): Promise<RegisteredUser> => {
  const { baseUrl, adminPassword } = suite.master();
  const password = `${username}-Pass-1`;
  const user = await callApi<{ id: number }>(baseUrl, 'POST', '/v1/users', {
    token: await adminToken(baseUrl, adminPassword),
    body: { username, password, email: `${username}@example.com`, type: 2, package_exempt: exempt },
  });
  return { id: user.id, account: username, password, token: await login(baseUrl, username, password) };
};

/** Takes away or gives back an account's need for a package. */
export const setPackageExempt = async (suite: Suite, userId: number, exempt: boolean): Promise<void> => {
  const { baseUrl, adminPassword } = suite.master();
  await callApi(baseUrl, 'PUT', `/v1/users/${userId}`, {
    token: await adminToken(baseUrl, adminPassword),
    body: { package_exempt: exempt },
  });
};

/** A customer of the suite's master, made once per spec file, who needs no package for sites and streams. */
export const exemptCustomerOf = (suite: Suite, username: string) => {
  let user: Promise<RegisteredUser> | undefined;
  return (): Promise<RegisteredUser> => {
    user ??= createCustomer(suite, username, { exempt: true });
    return user;
  };
};
