import type { Site } from '@rampart/contracts';
import { adminToken, callApi, type RegisteredUser, registerUser } from './api.ts';
import type { Suite } from './suite.ts';

/** A customer of the suite's master, registered once per spec file. */
export const customerOf = (suite: Suite, username: string) => {
  let user: RegisteredUser | undefined;
  return async (): Promise<RegisteredUser> => {
    const { baseUrl, adminPassword } = suite.master();
    user ??= await registerUser(baseUrl, await adminToken(baseUrl, adminPassword), username);
    return user;
  };
};

/** The customer's sites whose domain contains `domain`, read through the API. */
export const sitesNamed = async (suite: Suite, token: string, domain: string): Promise<Site[]> =>
  (
    await callApi<{ list: Site[] }>(suite.master().baseUrl, 'GET', `/v1/sites?domain=${encodeURIComponent(domain)}`, {
      token,
    })
  ).list;

export const createSite = (suite: Suite, token: string, domain: string): Promise<Site> =>
  callApi<Site>(suite.master().baseUrl, 'POST', '/v1/sites', {
    token,
    body: { domains: [domain], origins: [{ address: '127.0.0.1', port: 8080, weight: 1, backup: false }] },
  });
