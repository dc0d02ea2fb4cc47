import { AjvCompiler, type BuildCompilerFromPool } from '@fastify/ajv-compiler';
import { type SerializerFactory, SerializerSelector } from '@fastify/fast-json-stringify-compiler';

/**
 * Fastify compiles every route's validator (Ajv) and response serializer (fast-json-stringify) when
 * the app gets ready: about a second of a master's start (0.8 of its 3.6 s of CPU), for routes most
 * of which a given master never serves. So each is compiled when its route first needs it. A compiled
 * function depends only on its schema, the shared schemas and the compiler options, so the process
 * keeps what it compiled and a second app in the same process (the tests build one per test) reuses
 * it. Keys are the JSON of those inputs, so an equal schema in another object hits. A schema Ajv
 * cannot compile fails its route's first request with a 500 instead of the start; the API sweep
 * (api-fuzz.test.ts) calls every operation, so such a schema fails a test before it ships.
 */
const ajvPool = AjvCompiler();
const fjsSelector = SerializerSelector();
const compiled = new Map<string, unknown>();

function cached<T>(key: string, compile: () => T): T {
  const hit = compiled.get(key) as T | undefined;
  if (hit) return hit;
  const made = compile();
  compiled.set(key, made);
  return made;
}

// Fastify calls the validator compiler with its route definition ({schema, method, url, httpPart}),
// where @fastify/ajv-compiler's types say a bare schema.
type CompileValidator = ReturnType<BuildCompilerFromPool>;
type RouteDefinition = Parameters<CompileValidator>[0] & { schema: unknown };

type Validate = ReturnType<CompileValidator>;
interface AjvValidate {
  (data: unknown, dataContext?: unknown): unknown;
  errors?: unknown;
}

/**
 * A validator that compiles on its first call. Fastify reads `errors` off the function it holds after
 * a failed call, and passes the request as parent data (so Ajv may coerce a whole part) only to a
 * function with `schemaEnv`, which every Ajv validator has.
 */
const lazyValidator = (compile: () => AjvValidate): Validate => {
  let compiled: AjvValidate | undefined;
  const validate: AjvValidate & { schemaEnv: true } = Object.assign(
    (data: unknown, dataContext?: unknown) => {
      compiled ??= compile();
      const result = compiled(data, dataContext);
      validate.errors = compiled.errors;
      return result;
    },
    { schemaEnv: true as const },
  );
  return validate as unknown as Validate;
};

const buildValidator: BuildCompilerFromPool = (externalSchemas, options) => {
  const compile = ajvPool(externalSchemas, options);
  const context = JSON.stringify(['validator', externalSchemas, options]);
  const lazyCompile = (route: RouteDefinition) =>
    lazyValidator(() => cached(`${context}${JSON.stringify(route.schema)}`, () => compile(route) as AjvValidate));
  return lazyCompile as CompileValidator;
};

const buildSerializer: SerializerFactory = (externalSchemas, options) => {
  const compile = fjsSelector(externalSchemas, options);
  const context = JSON.stringify(['serializer', externalSchemas, options]);
  return (route) => {
    let serialize: ((data: unknown) => string) | undefined;
    return (data: unknown) => {
      serialize ??= cached(`${context}${JSON.stringify(route.schema)}`, () => compile(route));
      return serialize(data);
    };
  };
};

export const schemaCompilers = { buildValidator, buildSerializer };
