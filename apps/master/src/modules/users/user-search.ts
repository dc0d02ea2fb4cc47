import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

const MAX_TERM = 64;

/**
 * The words a user is found by in the admin's list: account, email and its domain, phone with and
 * without +, name and each word of it, lowercase. A search matches the start of any of them.
 */
export function userSearchTerms(user: { username: string; email: string; phone: string; name: string }): string[] {
  const terms = new Set<string>();
  const add = (value: string) => {
    const term = value.trim().toLowerCase().slice(0, MAX_TERM);
    if (term) terms.add(term);
  };
  add(user.username);
  add(user.email);
  add(user.email.split('@')[1] ?? '');
  add(user.phone);
  add(user.phone.replace(/^\+/, ''));
  add(user.name);
  for (const word of user.name.split(/\s+/)) add(word);
  return [...terms];
}

/** What a search looks for: the start of a term, as a range of the terms' byte order. */
export function searchRange(search: string): { from: string; to: string } | null {
  const prefix = search.trim().toLowerCase().slice(0, MAX_TERM);
  return prefix ? { from: prefix, to: `${prefix}\u{10ffff}` } : null;
}

/** Replaces a user's terms (call in the transaction that writes the user). */
export async function writeSearchTerms(
  db: Kysely<Database>,
  userId: number,
  user: { username: string; email: string; phone: string; name: string },
) {
  await db.deleteFrom('user_search_terms').where('user_id', '=', userId).execute();
  const terms = userSearchTerms(user);
  if (terms.length > 0) {
    await db
      .insertInto('user_search_terms')
      .values(terms.map((term) => ({ term, user_id: userId })))
      .execute();
  }
}
