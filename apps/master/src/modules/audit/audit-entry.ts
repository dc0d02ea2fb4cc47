/**
 * What the operation log keeps of a write: a readable action name, the ids written to, and the
 * request body with every secret replaced (by field name, and by schema: `writeOnly` or
 * `format: password`), long text cut short.
 */
export const MASK = '******';

const SECRET_NAME = /pass|secret|token|private|credential|signature|(^|_)key($|_pem)/i;
const MAX_TEXT = 512;
const MAX_ITEMS = 100;
const MAX_DEPTH = 8;

interface SchemaNode {
  writeOnly?: boolean;
  format?: string;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  allOf?: SchemaNode[];
}

const asSchema = (value: unknown): SchemaNode | undefined =>
  value !== null && typeof value === 'object' ? (value as SchemaNode) : undefined;

/** The schema of a property, looked for through unions and intersections as well. */
function propertySchema(schema: SchemaNode | undefined, name: string): SchemaNode | undefined {
  if (!schema) return undefined;
  const own = schema.properties?.[name];
  if (own) return own;
  for (const branch of [...(schema.anyOf ?? []), ...(schema.allOf ?? [])]) {
    const found = propertySchema(branch, name);
    if (found) return found;
  }
  return undefined;
}

const secretBySchema = (schema: SchemaNode | undefined) => schema?.writeOnly === true || schema?.format === 'password';

export function maskSecrets(value: unknown, schema?: unknown, depth = 0): unknown {
  const node = asSchema(schema);
  if (typeof value === 'string') {
    return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}… (${value.length} characters)` : value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '…';
  if (Array.isArray(value)) {
    const kept = value.slice(0, MAX_ITEMS).map((item) => maskSecrets(item, node?.items, depth + 1));
    return value.length > MAX_ITEMS ? [...kept, `… ${value.length - MAX_ITEMS} more`] : kept;
  }
  const masked: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    const fieldSchema = propertySchema(node, name);
    const secret = SECRET_NAME.test(name) || secretBySchema(fieldSchema);
    // Flags and numbers named like secrets (allow_private, key_count) say nothing secret.
    const hidden = typeof field === 'string' ? field !== '' : field !== null && typeof field === 'object';
    masked[name] = secret && hidden ? MASK : maskSecrets(field, fieldSchema, depth + 1);
  }
  return masked;
}

const VERBS: Record<string, string> = { POST: 'create', PUT: 'update', PATCH: 'update', DELETE: 'delete' };
// Writes whose generic name would mislead.
const NAMED: Record<string, string> = {
  'POST /v1/common/auth': 'session.refresh',
  'DELETE /v1/common/auth': 'session.sign-out',
};

/** `PUT /v1/sites/:id` → `sites.update`, `POST /v1/user-package/:id/upgrades` → `user-package.upgrades.create`. */
export function actionName(method: string, route: string): string {
  const named = NAMED[`${method} ${route}`];
  if (named) return named;
  const resource = route
    .replace(/^\/v1\//, '')
    .split('/')
    .filter((segment) => segment !== '' && !segment.startsWith(':'))
    .join('.')
    .toLowerCase()
    .replace(/[^a-z0-9.-]/g, '-');
  return `${resource}.${VERBS[method] ?? method.toLowerCase()}`;
}

const ID_TEXT = /^[A-Za-z0-9.:-]{1,64}$/;
const idText = (value: unknown): string | undefined => {
  const text = typeof value === 'number' && Number.isInteger(value) ? String(value) : value;
  return typeof text === 'string' && ID_TEXT.test(text) ? text : undefined;
};

/** The objects a write touched: path parameters, `id` and `ids` of the body, and the id a create answered. */
export function targetIds(params: unknown, body: unknown, answered: unknown): string[] {
  const found: unknown[] = [];
  if (params && typeof params === 'object') found.push(...Object.values(params));
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const { id, ids } = body as { id?: unknown; ids?: unknown };
    found.push(id);
    if (Array.isArray(ids)) found.push(...ids.slice(0, MAX_ITEMS));
  }
  found.push(answered);
  return [...new Set(found.map(idText).filter((text) => text !== undefined))];
}
