import { isSafePattern } from '../../../src/modules/tools/registry/safe-pattern';
import { ToolSchemaCompiler } from '../../../src/modules/tools/registry/tool-schema-compiler';

function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

describe('ToolSchemaCompiler', () => {
  const compile = (schema: Record<string, unknown>) => new ToolSchemaCompiler().compile(schema);

  it.each([
    ['not JSON Schema', { type: 'object', properties: { a: { type: 'strng' } } }, /does not compile/],
    ['a $ref that resolves nowhere', { properties: { a: { $ref: '#/$defs/none' } } }, /does not compile/],
    ['a remote $ref (never fetched)', { properties: { a: { $ref: 'https://x.invalid/s.json' } } }, /compile/],
    ['a hostile $id', { $id: 'urn:', type: 'object' }, /does not compile/],
    ['a draft-03 dialect', { $schema: 'http://json-schema.org/draft-03/schema#' }, /dialect/],
    ['nesting past 64 levels', nested(40), /deeper than 64/],
    ['more than 100000 characters', { description: 'x'.repeat(100_001) }, /larger than 100000/],
    ['a backtracking pattern', { properties: { a: { pattern: '^(a|aa)*$' } } }, /backtrack/],
    [
      'a backtracking property pattern',
      { patternProperties: { '(\\w+)+x': { type: 'string' } } },
      /backtrack/,
    ],
  ])('refuses %s with a reason', (_label, schema, reason) => {
    const compiled = compile(schema);
    expect(compiled).toEqual({ ok: false, reason: expect.stringMatching(reason) });
  });

  it('reads 2020-12, draft-07 and undeclared schemas, and names the failing paths', () => {
    const draft07 = compile({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] } },
      required: ['pair', 'name'],
    });
    if (!draft07.ok) throw new Error(draft07.reason);
    expect(draft07.args.check({ pair: ['a', 1], name: 'n' })).toEqual([]);
    expect(draft07.args.check({ pair: ['a', 'b'] }).map((issue) => issue.path)).toEqual(['name', 'pair.1']);

    // No $schema, tuple `items`: not valid 2020-12, read as draft-07.
    const undeclared = compile({ type: 'object', properties: { t: { items: [{ type: 'string' }] } } });
    expect(undeclared.ok).toBe(true);

    const strict = compile({
      type: 'object',
      additionalProperties: false,
      properties: { 'a/b': { type: 'string' } },
    });
    if (!strict.ok) throw new Error(strict.reason);
    expect(strict.args.check({ 'a/b': 1, extra: 2 })).toEqual([
      { path: 'extra', message: 'must NOT have additional properties' },
      { path: 'a/b', message: 'must be string' },
    ]);
    expect(strict.args.check('text')).toEqual([{ path: '(root)', message: 'must be object' }]);
  });

  it('reads a draft-04 schema as draft-07 and offers it as given', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-04/schema#',
      type: 'object',
      properties: { q: { type: 'string' } },
      required: ['q'],
    };
    const draft04 = compile(schema);
    if (!draft04.ok) throw new Error(draft04.reason);
    expect(draft04.args.check({ q: 'x' })).toEqual([]);
    expect(draft04.args.check({}).map((issue) => issue.path)).toEqual(['q']);
    expect(draft04.args.jsonSchema).toEqual(schema);
  });

  it('never changes the schema it was given nor the arguments it checks', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer', default: 3 } } };
    const copy = structuredClone(schema);
    const compiled = compile(schema);
    if (!compiled.ok) throw new Error(compiled.reason);
    const args = {};
    expect(compiled.args.check(args)).toEqual([]);
    expect(args).toEqual({});
    expect(compiled.args.jsonSchema).toBe(schema);
    expect(schema).toEqual(copy);
  });
});

describe('isSafePattern', () => {
  it.each([
    '^[a-z0-9-]+$',
    '^\\d{4}-\\d{2}-\\d{2}$',
    '^(https?://)?[\\w.]+$',
    '^(foo|bar)$',
    '[(]+',
    '\\(a+\\)+',
  ])('accepts %s', (pattern) => expect(isSafePattern(pattern)).toBe(true));

  it.each(['^(a+)+$', '(\\w*)*', '(a|ab)*c', '((ab)+c){2,}', '(?:x(y+))+', 'a'.repeat(1_001)])(
    'refuses %s',
    (pattern) => expect(isSafePattern(pattern)).toBe(false),
  );
});
