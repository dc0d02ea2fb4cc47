import { describe, expect, it } from 'vitest';
import { markSchemaCallsPure } from './pureSchemas.ts';

describe('pure schemas', () => {
  it('marks each TypeBox builder call pure and leaves other code and the line count alone', () => {
    const code =
      'const Name = Type.String({ maxLength: 64 });\nconst list = Type.Array(Type.Object({ name: Name }));\nSomeType.Object(x);\n';
    const marked = markSchemaCallsPure(code);
    expect(marked).toBe(
      'const Name = /* @__PURE__ */ Type.String({ maxLength: 64 });\n' +
        'const list = /* @__PURE__ */ Type.Array(/* @__PURE__ */ Type.Object({ name: Name }));\nSomeType.Object(x);\n',
    );
    expect(marked.split('\n')).toHaveLength(code.split('\n').length);
  });
});
