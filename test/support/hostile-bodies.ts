import { randomBytes } from 'node:crypto';
import type { JsonSchema } from './openapi-routes';

/** JSON text put verbatim where a value goes (numbers JSON.stringify cannot write, escapes, bombs). */
class Raw {
  constructor(readonly text: string) {}
}

type Value = Raw | string | number | boolean | null | Value[] | { [key: string]: Value };

export interface HostileBody {
  label: string;
  raw: string;
}

/** Serialises like JSON.stringify, except that Raw values are written as they are. */
function toJson(value: Value): string {
  if (value instanceof Raw) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}:${toJson(item)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** An own property named `key`, even for `__proto__` (a computed key never calls the setter). */
const entry = (key: string, value: Value): Record<string, Value> => ({ [key]: value });

/** `base` with members written as raw text in front (keys JSON.stringify would not write, repeats). */
function withRawPair(pairs: string, base: Record<string, Value>): Raw {
  const rest = toJson(base).slice(1, -1);
  return new Raw(`{${pairs}${rest === '' ? '' : `,${rest}`}}`);
}

const arrayBomb = (depth: number) => new Raw('['.repeat(depth) + ']'.repeat(depth));
const objectBomb = (depth: number) => new Raw('{"a":'.repeat(depth) + '1' + '}'.repeat(depth));
const pollution = (): Value => ({ polluted: 'yes', toString: 'no', valueOf: 1 });

const NUMBERS: [string, Value][] = [
  ['1e400', new Raw('1e400')],
  ['-1e400', new Raw('-1e400')],
  ['-1e308', new Raw('-1e308')],
  ['2**64', new Raw('18446744073709551616')],
  ['400 digits', new Raw('9'.repeat(400))],
  ['1e-400', new Raw('1e-400')],
  ['-0', new Raw('-0')],
  ['1.5', 1.5],
  ['-1', -1],
];

const STRINGS: [string, Value][] = [
  ['NUL', 'a\u0000b'],
  ['only NUL', '\u0000'],
  ['lone high surrogate', new Raw('"\\ud800"')],
  ['lone low surrogate', new Raw('"x\\udfffy"')],
  ['escaped NUL and surrogate', new Raw('"\\u0000\\udbff"')],
  ['digits', '9'.repeat(5_000)],
  ['100 KB', 'x'.repeat(100_000)],
  ['control characters', '\u0001\u001f\u007f\u2028\u2029'],
  ['empty', ''],
];

const WRONG_TYPES: [string, Value][] = [
  ['number', 1],
  ['boolean', true],
  ['null', null],
  ['empty array', []],
  ['array of strings', ['x', 'y']],
  ['array of objects', [{ a: 1 }]],
  ['empty object', {}],
  ['object', { a: 'b' }],
  ['string', 'not-what-you-expect'],
  ['nested 64 deep', arrayBomb(63)],
  ['nested 65 deep', arrayBomb(65)],
];

/** A body with every required field filled, references pointing at real rows where the caller has them. */
export function baseBody(schema: JsonSchema, references: Record<string, string>): Record<string, Value> {
  const body: Record<string, Value> = {};
  for (const name of schema.required ?? []) {
    body[name] = sampleValue(name, schema.properties?.[name] ?? {}, references);
  }
  return body;
}

function sampleValue(name: string, schema: JsonSchema, references: Record<string, string>): Value {
  const reference = references[name];
  if (reference !== undefined) return reference;
  if (schema.enum !== undefined) return schema.enum[0] as Value;
  if (schema.example !== undefined) return schema.example as Value;
  if (schema.properties !== undefined) return baseBody(schema, references);
  switch (schema.type) {
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return `fuzz-${randomBytes(6).toString('hex')}`;
  }
}

/** Every declared field, and the fields of declared objects one level down, as paths. */
function fieldPaths(schema: JsonSchema): string[][] {
  return Object.entries(schema.properties ?? {}).flatMap(([name, property]) => [
    [name],
    ...Object.keys(property.properties ?? {}).map((child) => [name, child]),
  ]);
}

function fieldSchema(schema: JsonSchema, path: string[]): JsonSchema {
  return path.reduce<JsonSchema>((parent, name) => parent.properties?.[name] ?? {}, schema);
}

function jsonType(value: Value): string {
  if (value instanceof Raw) return 'raw';
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

function withField(
  schema: JsonSchema,
  base: Record<string, Value>,
  path: string[],
  value: Value,
  references: Record<string, string>,
): Record<string, Value> {
  const [name, child] = path;
  if (child === undefined) return { ...base, [name]: value };
  const parent = schema.properties?.[name] ?? {};
  return { ...base, [name]: { ...baseBody(parent, references), [child]: value } };
}

/**
 * The battery for one route: whole-body attacks, then for every declared field (and one level into
 * declared objects) wrong types, hostile numbers and hostile strings on an otherwise valid body.
 */
export function hostileBodies(schema: JsonSchema | null, references: Record<string, string>): HostileBody[] {
  const declared = schema ?? {};
  const base = baseBody(declared, references);
  const firstField = Object.keys(declared.properties ?? {})[0] ?? 'a';
  const bodies: [string, Value][] = [
    ['array bomb 100k', arrayBomb(100_000)],
    ['object bomb 30k', objectBomb(30_000)],
    [`bomb in ${firstField}`, { ...base, [firstField]: objectBomb(10_000) }],
    ['top-level array', [base]],
    ['top-level string', 'body'],
    ['top-level number', new Raw('1e400')],
    ['top-level null', null],
    ['empty object', {}],
    ['__proto__ at the top', { ...entry('__proto__', pollution()), ...base }],
    ['constructor.prototype at the top', { ...base, constructor: { prototype: pollution() } }],
    ['prototype at the top', { ...base, prototype: pollution() }],
    ['__proto__ nested', { ...base, [firstField]: entry('__proto__', pollution()) }],
    ['__proto__ in an array', { ...base, [firstField]: [entry('__proto__', pollution())] }],
    ['NUL in a key', { ...base, 'a\u0000b': 1 }],
    ['lone surrogate in a key', withRawPair('"\\ud800":1', base)],
    [
      'duplicate keys',
      withRawPair(`${JSON.stringify(firstField)}:1,${JSON.stringify(firstField)}:"x"`, base),
    ],
  ];
  for (const path of fieldPaths(declared)) {
    const label = path.join('.');
    const nested = path.length > 1;
    const declaredType = fieldSchema(declared, path).type;
    const wrongTypes = WRONG_TYPES.filter(([, value]) => jsonType(value) !== declaredType);
    for (const [kind, value] of [...wrongTypes, ...NUMBERS, ...STRINGS]) {
      bodies.push([`${label} = ${kind}`, withField(declared, base, path, value, references)]);
    }
    if (!nested) {
      bodies.push([`${label}.__proto__`, { ...base, [label]: entry('__proto__', pollution()) }]);
    }
  }
  return bodies.map(([label, value]) => ({ label, raw: toJson(value) }));
}
