// The operations of /v1/openapi.json with a plausible request each: the API-wide property tests
// start from these and replace one field at a time.

export interface JsonSchema {
  type?: string;
  const?: unknown;
  enum?: unknown[];
  default?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  minimum?: number;
  minLength?: number;
  maxLength?: number;
}

interface OpenApiParameter {
  in: 'path' | 'query' | 'header';
  name: string;
  schema?: JsonSchema;
}

interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Operation {
  method: Method;
  /** With `{name}` placeholders for path parameters. */
  path: string;
  pathParams: string[];
  query: Record<string, JsonSchema>;
  /** Absent when the operation takes no JSON body. */
  body?: JsonSchema;
}

/** Where one hostile value goes: a path parameter, a query parameter or a top-level body field. */
export interface Target {
  operation: Operation;
  in: 'path' | 'query' | 'body';
  name: string;
}

export function operationsOf(document: OpenApiDocument, prefix = '/v1/'): Operation[] {
  const operations: Operation[] = [];
  for (const [path, byMethod] of Object.entries(document.paths)) {
    if (!path.startsWith(prefix)) continue;
    for (const [method, operation] of Object.entries(byMethod)) {
      const parameters = operation.parameters ?? [];
      const body = operation.requestBody?.content?.['application/json']?.schema;
      operations.push({
        method: method.toUpperCase() as Method,
        path,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: Object.fromEntries(parameters.filter((p) => p.in === 'query').map((p) => [p.name, p.schema ?? {}])),
        ...(body && { body }),
      });
    }
  }
  return operations;
}

export function targetsOf(operation: Operation): Target[] {
  return [
    ...operation.pathParams.map((name) => ({ operation, in: 'path' as const, name })),
    ...Object.keys(operation.query).map((name) => ({ operation, in: 'query' as const, name })),
    ...Object.keys(operation.body?.properties ?? {}).map((name) => ({ operation, in: 'body' as const, name })),
  ];
}

let unique = 0;

/** Values the schemas' patterns accept, by field name: a request built from them passes validation. */
const KNOWN: Record<string, () => unknown> = {
  domains: () => [`fuzz-${++unique}.example.com`],
  domain: () => `fuzz-${++unique}.example.com`,
  origins: () => [{ address: '192.0.2.10', port: 8080 }],
  address: () => '192.0.2.10',
  cidr: () => '203.0.113.7',
  ip: () => '203.0.113.7',
  ips: () => ['192.0.2.50'],
  email: () => 'fuzz@example.com',
  phone: () => '+15550100',
  qq: () => '123456',
  urls: () => ['http://fuzz.example.com/a'],
  conditions: () => [{ field: 'path', op: 'prefix', values: ['/'] }],
  entries: () => [{ action: 'deny', condition: { field: 'ip', op: 'cidr', values: ['10.0.0.1'] } }],
  from: () => '2026-11-22T10:00:00Z',
  to: () => '2026-11-22T11:00:00Z',
  password: () => 'fuzz-password-1',
  old_password: () => 'fuzz-password-1',
  username: () => `fuzz${++unique}`,
  account: () => 'nobody',
  name: () => 'fuzz',
  note: () => 'fuzz',
  reason: () => 'fuzz',
  kind: () => 'cert-issue',
};

/** A value the schema accepts (as far as a sketch of its shape can tell). */
export function sampleOf(schema: JsonSchema, name = ''): unknown {
  const known = KNOWN[name];
  if (known) return known();
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const branch = (schema.anyOf ?? schema.oneOf)?.[0];
  if (branch) return sampleOf(branch, name);
  if (schema.allOf) {
    return Object.assign({}, ...schema.allOf.map((part) => sampleOf(part, name) as object));
  }
  switch (schema.type) {
    case 'string':
      return 'f'.repeat(Math.max(1, schema.minLength ?? 1));
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sampleOf(schema.items ?? {}, name));
    case 'object':
      return Object.fromEntries(
        (schema.required ?? []).map((field) => [field, sampleOf(schema.properties?.[field] ?? {}, field)]),
      );
    default:
      return 'fuzz';
  }
}
