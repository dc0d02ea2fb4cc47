import { AjvCompiler, type BuildCompilerFromPool } from '@fastify/ajv-compiler';
import { type SerializerFactory, SerializerSelector } from '@fastify/fast-json-stringify-compiler';

/**
 * Fastify compiles every route's validator (Ajv) and response serializer (fast-json-stringify) when
 * the app gets ready: about a second for this API. A compiled function depends only on its schema,
 * the shared schemas and the compiler options, so the process keeps what it compiled and a second
 * app in the same process (the tests build one per test) reuses it. A master builds one app, for
 * which nothing changes. Keys are the JSON of those inputs, so an equal schema in another object hits.
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

const buildValidator: BuildCompilerFromPool = (externalSchemas, options) => {
  const compile = ajvPool(externalSchemas, options);
  const context = JSON.stringify(['validator', externalSchemas, options]);
  const cachedCompile = (route: RouteDefinition) =>
    cached(`${context}${JSON.stringify(route.schema)}`, () => compile(route));
  return cachedCompile as CompileValidator;
};

const buildSerializer: SerializerFactory = (externalSchemas, options) => {
  const compile = fjsSelector(externalSchemas, options);
  const context = JSON.stringify(['serializer', externalSchemas, options]);
  return (route) => cached(`${context}${JSON.stringify(route.schema)}`, () => compile(route));
};

export const schemaCompilers = { buildValidator, buildSerializer };
