import { describe, expect, it } from 'vitest';
import { schemaCompilers } from './schema-compilers.ts';

const route = (schema: unknown) => ({ schema, method: 'POST', url: '/v1/things', httpPart: 'body' });

describe('schema compilers', () => {
  const compileValidator = schemaCompilers.buildValidator({}, {
    customOptions: { coerceTypes: 'array', useDefaults: true },
  } as never);

  it('compiles a validator only when its route first validates', () => {
    // Ajv refuses this schema; compiled at start, it would throw here and stop the master.
    const broken = compileValidator(route({ type: 'object', properties: { n: { type: 'no-such-type' } } }) as never);
    expect(() => (broken as (data: unknown) => unknown)({ n: 1 })).toThrow(/no-such-type|type/);
  });

  it('validates, coerces and reports errors the way Ajv does', () => {
    const schema = { type: 'object', required: ['n'], properties: { n: { type: 'integer', minimum: 1 } } };
    const validate = compileValidator(route(schema) as never) as ((data: unknown) => boolean) & {
      errors?: { instancePath: string; keyword: string }[];
      schemaEnv?: unknown;
    };
    // Fastify hands a request part to Ajv with its parent only when the function has schemaEnv.
    expect(validate.schemaEnv).toBeTruthy();
    const body = { n: '2' };
    expect(validate(body)).toBe(true);
    expect(body.n).toBe(2);
    expect(validate({ n: 0 })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ instancePath: '/n', keyword: 'minimum' });
    expect(validate({ n: 3 })).toBe(true);
    expect(validate.errors ?? null).toBeNull();
  });

  it('serializes with the response schema once asked to', () => {
    const serialize = schemaCompilers.buildSerializer(
      {},
      {},
    )({
      schema: { type: 'object', properties: { a: { type: 'integer' } } },
      method: 'GET',
      url: '/v1/things',
      httpStatus: '200',
    } as never) as (data: unknown) => string;
    expect(serialize({ a: 1, secret: 'x' })).toBe('{"a":1}');
  });
});
