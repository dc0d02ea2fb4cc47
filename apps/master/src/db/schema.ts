import type { Generated } from 'kysely';

/** Times are integer milliseconds since the epoch in both dialects; flags are 0/1 integers. */
export interface UsersTable {
  id: Generated<number>;
  username: string;
  username_key: string;
  name: string;
  email: string;
  email_key: string | null;
  phone: string;
  phone_key: string | null;
  qq: string;
  password_hash: string;
  type: number;
  access: string;
  group_id: number | null;
  balance: number;
  status: string;
  created_at: number;
  updated_at: number;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  ip: string;
  user_agent: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export interface LoginAttemptsTable {
  id: Generated<number>;
  account_key: string;
  ip: string;
  user_id: number | null;
  success: number;
  reason: string;
  created_at: number;
}

export interface CaptchasTable {
  id: string;
  answer_hash: string;
  expires_at: number;
}

export interface VerifyCodesTable {
  id: Generated<number>;
  channel: string;
  target: string;
  purpose: string;
  code_hash: string;
  attempts: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface MessageSendsTable {
  id: Generated<number>;
  channel: string;
  target: string;
  subject: string;
  body: string;
  status: string;
  error: string;
  created_at: number;
}

export interface ConfigsTable {
  id: Generated<number>;
  scope_name: string;
  scope_id: number;
  type: string;
  name: string;
  value: string;
  updated_at: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  login_attempts: LoginAttemptsTable;
  captchas: CaptchasTable;
  verify_codes: VerifyCodesTable;
  message_sends: MessageSendsTable;
  configs: ConfigsTable;
}
