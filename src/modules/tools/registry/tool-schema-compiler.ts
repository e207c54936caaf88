import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { truncate } from '../../../common/text/truncate.js';
import { jsonNestsDeeperThan } from '../../../common/http/json-depth.js';
import { JsonSchemaArgs, type ArgumentIssue } from './json-schema-args.js';
import { isSafePattern } from './safe-pattern.js';

/** Bounds on a server's input schema: past them the tool is left out, never compiled. */
export const MAX_SCHEMA_CHARS = 100_000;
export const MAX_SCHEMA_DEPTH = 64;
const MAX_ISSUES = 20;
const MAX_PATH_CHARS = 200;
const MAX_REASON_CHARS = 300;

const DRAFT_2020 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;
const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
/** Older dialects still common in generated schemas; read as draft-07 where they mean the same. */
const DRAFT_04_06 = /^https?:\/\/json-schema\.org\/draft-0[46]\/schema#?$/;

export type CompiledToolSchema = { ok: true; args: JsonSchemaArgs } | { ok: false; reason: string };

type RegExpEngine = NonNullable<NonNullable<Options['code']>['regExp']>;

const guardedRegExp: RegExpEngine = Object.assign(
  (pattern: string, flags: string) => {
    if (!isSafePattern(pattern))
      throw new Error(`the pattern "${truncate(pattern, 80)}" may backtrack without end`);
    return new RegExp(pattern, flags);
  },
  { code: 'new RegExp' },
);

const OPTIONS: Options = {
  strict: false, // servers add their own keywords (`title`, `x-…`); unknown ones are annotations
  allErrors: true,
  validateSchema: true, // a schema that is not JSON Schema does not compile
  validateFormats: false, // `format` is an annotation in 2020-12; the server checks its own formats
  addUsedSchema: false, // two tools may carry the same `$id`
  logger: false,
  code: { regExp: guardedRegExp },
};

/**
 * Compiles JSON Schemas of tool arguments (an MCP server's tool list; the tools of an approval point,
 * whose edited arguments are checked) into validators. Each compiler keeps validators of its own, so
 * no schema of one server can name, replace or collide with another server's. A schema names its
 * dialect in `$schema` (2020-12 or draft-07; draft-04 and -06 are read as draft-07); one without is
 * read as 2020-12, the MCP default, and as draft-07 when it is not valid 2020-12. What is offered to
 * the model stays the schema as given: the validator is compiled from a copy.
 */
export class ToolSchemaCompiler {
  private draft2020: Ajv2020 | undefined;
  private draft07: Ajv | undefined;

  compile(schema: Record<string, unknown>): CompiledToolSchema {
    const json = JSON.stringify(schema);
    if (json.length > MAX_SCHEMA_CHARS)
      return refused(`its input schema is larger than ${MAX_SCHEMA_CHARS} characters`);
    if (jsonNestsDeeperThan(Buffer.from(json), MAX_SCHEMA_DEPTH)) {
      return refused(`its input schema is nested deeper than ${MAX_SCHEMA_DEPTH} levels`);
    }
    const dialect = schema.$schema;
    if (dialect === undefined) {
      const first = this.tryCompile(this.ajv2020(), schema);
      return first.ok ? first : this.tryCompile(this.ajv07(), schema);
    }
    const declared = typeof dialect === 'string' ? dialect : JSON.stringify(dialect);
    if (DRAFT_2020.test(declared)) return this.tryCompile(this.ajv2020(), schema);
    if (DRAFT_07.test(declared)) return this.tryCompile(this.ajv07(), schema);
    if (DRAFT_04_06.test(declared)) {
      const { $schema: _older, ...asDraft07 } = schema;
      return this.tryCompile(this.ajv07(), asDraft07, schema);
    }
    return refused(
      `its input schema declares a dialect this service does not read (${truncate(declared, 80)})`,
    );
  }

  /** Compiles `schema` (a copy); `offered` is what the model is shown, the server's schema as given. */
  private tryCompile(
    ajv: Ajv | Ajv2020,
    schema: Record<string, unknown>,
    offered: Record<string, unknown> = schema,
  ): CompiledToolSchema {
    let validate: ValidateFunction;
    try {
      validate = ajv.compile(structuredClone(schema));
    } catch (error) {
      return refused(
        `its input schema does not compile: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const check = (args: unknown): ArgumentIssue[] =>
      validate(args) ? [] : (validate.errors ?? []).slice(0, MAX_ISSUES).map(issueOf);
    return { ok: true, args: new JsonSchemaArgs(offered, check) };
  }

  private ajv2020(): Ajv2020 {
    return (this.draft2020 ??= new Ajv2020(OPTIONS));
  }

  private ajv07(): Ajv {
    return (this.draft07 ??= new Ajv(OPTIONS));
  }
}

function refused(reason: string): CompiledToolSchema {
  return { ok: false, reason: truncate(reason, MAX_REASON_CHARS) };
}

/** `/a/0/b` and a missing or extra property `c` → `a.0.b.c`, as zod paths read. */
function issueOf(error: ErrorObject): ArgumentIssue {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
  const named: unknown = error.params.missingProperty ?? error.params.additionalProperty;
  if (typeof named === 'string') segments.push(named);
  return {
    path: truncate(segments.join('.') || '(root)', MAX_PATH_CHARS),
    message: error.message ?? 'is invalid',
  };
}
