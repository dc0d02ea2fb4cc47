import type { SecretBox } from '../../secrets.ts';

/** A stored secret setting that is sealed (AES-256-GCM, secrets.ts) starts with this. */
const SEALED = 'sealed:';

// The box of each master's config store: settings are read through the store wherever they are used.
const boxes = new WeakMap<object, SecretBox>();

/** Seals the secret settings written through `db`, and opens them when read, with this box. */
export const sealSettingsWith = (db: object, box: SecretBox) => void boxes.set(db, box);

/** A secret as stored: sealed with the store's box (an empty one stays empty; a sealed one as is). */
export function sealSetting(db: object, value: string): string {
  const box = boxes.get(db);
  if (!box || value === '' || value.startsWith(SEALED)) return value;
  return `${SEALED}${box.seal(value)}`;
}

/** A stored secret in the clear: opened when sealed; one saved before sealing existed reads as it is. */
export function openSetting(db: object, stored: string): string {
  if (!stored.startsWith(SEALED)) return stored;
  const box = boxes.get(db);
  if (!box) throw new Error('a sealed setting was read without the secret key');
  return box.open(stored.slice(SEALED.length));
}
