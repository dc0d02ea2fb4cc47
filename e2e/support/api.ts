/** Direct calls to the master's /v1 API for set-up and for reading the outbox. */
interface Envelope<T> {
  code: number | string;
  msg: string;
  data: T;
}

export const callApi = async <T>(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<T> => {
  const headers: Record<string, string> = {};
  if (options.token) headers['Access-Token'] = options.token;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const envelope = (await response.json()) as Envelope<T>;
  if (envelope.code !== 0) throw new Error(`${method} ${path}: ${response.status} ${envelope.code} ${envelope.msg}`);
  return envelope.data;
};

export const adminToken = async (baseUrl: string, password: string): Promise<string> => {
  const user = await callApi<{ access_token: string }>(baseUrl, 'POST', '/v1/login', {
    body: { account: 'admin', password },
  });
  return user.access_token;
};

interface OutboxMessage {
  id: number;
  channel: 'email' | 'sms';
  target: string;
  subject: string;
  body: string;
  status: string;
  created_at: string;
}

/** The code in the newest email or SMS to `target`, read from the outbox through the admin API. */
export const latestCode = async (baseUrl: string, token: string, target: string): Promise<string> => {
  const { list } = await callApi<{ list: OutboxMessage[]; total: number }>(
    baseUrl,
    'GET',
    '/v1/log/msg-send?page=1&limit=20',
    { token },
  );
  const message = list.find((item) => item.target === target);
  if (!message) throw new Error(`no message to ${target} in the outbox: ${JSON.stringify(list)}`);
  const code = /\b(\d{4,8})\b/.exec(message.body)?.[1];
  if (!code) throw new Error(`no code in the message to ${target}: ${message.body}`);
  return code;
};

export interface RegisteredUser {
  id: number;
  account: string;
  password: string;
  token: string;
}

/** An ordinary user (type 2, empty access list), registered the way the register page does it. */
export const registerUser = async (baseUrl: string, admin: string, username: string): Promise<RegisteredUser> => {
  const email = `${username}@example.com`;
  const password = `${username}-Pass-1`;
  await callApi(baseUrl, 'POST', '/v1/email-captcha', { body: { email, purpose: 'register' } });
  const captcha = await latestCode(baseUrl, admin, email);
  const user = await callApi<{ id: number; access_token: string }>(baseUrl, 'POST', '/v1/user', {
    body: { username, password, email, captcha, accept_agreement: true },
  });
  return { id: user.id, account: username, password, token: user.access_token };
};

export const login = async (baseUrl: string, account: string, password: string): Promise<string> =>
  (await callApi<{ access_token: string }>(baseUrl, 'POST', '/v1/login', { body: { account, password } })).access_token;
