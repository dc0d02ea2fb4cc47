import type { SiteUrlAuth } from '@rampart/contracts';
import { AppError } from '../../errors.ts';

const invalid = (field: string, rule: string) => new AppError('invalid_param', `${field}: ${rule}`);

/** Rules of a site's signed URLs that its schema cannot express; throws invalid_param naming the field. */
export function checkUrlAuth(auth: SiteUrlAuth) {
  if (auth.enabled && auth.key === '') throw invalid('url_auth/key', 'signed URLs need a primary key');
  if (auth.backup_key !== '' && auth.backup_key === auth.key) {
    throw invalid('url_auth/backup_key', 'must differ from the primary key');
  }
  if (auth.backup_key !== '' && auth.key === '') {
    throw invalid('url_auth/key', 'a backup key needs a primary key');
  }
  const extensions = new Set<string>();
  for (const [index, extension] of auth.extensions.entries()) {
    const lower = extension.toLowerCase();
    if (extensions.has(lower)) throw invalid(`url_auth/extensions/${index}`, `${extension} is listed twice`);
    extensions.add(lower);
  }
}
