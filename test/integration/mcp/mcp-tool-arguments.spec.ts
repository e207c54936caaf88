import type { ServerResponse } from 'node:http';
import { ToolSchemaCompiler } from '../../../src/modules/tools/registry/tool-schema-compiler';
import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { TestMcpServer } from '../../support/mcp/mcp-test-server';
import { offeredTools, toolAnswer } from '../../support/runs/model-requests';
import { storedEvents } from '../../support/runs/run-event-rows';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { startRuntime } from '../../support/runs/runtime-context';
import type { TestContext, TestUser } from '../../support/test-app';

function answer(res: ServerResponse, id: unknown, result: unknown): void {
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', id, result }));
}

/** Nests `levels` objects inside each other under `properties.a`. */
function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

const LOOKUP_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  title: 'Lookup',
  properties: {
    term: { type: 'string', minLength: 1, description: 'What to look up.' },
    limit: { type: 'integer', minimum: 1, maximum: 10 },
    filter: { $ref: '#/$defs/filter' },
  },
  required: ['term'],
  additionalProperties: false,
  $defs: { filter: { type: 'object', properties: { lang: { enum: ['en', 'fr'] } } } },
  'x-vendor-hint': { cost: 'low' },
};

const LEGACY_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: { ids: { type: 'array', items: { $ref: '#/definitions/id' } } },
  required: ['ids'],
  definitions: { id: { type: 'string', pattern: '^[a-z]+-\\d+$' } },
};

/** Schemas that must not compile: the tool is left out, the rest of the server's tools stay. */
const BROKEN_SCHEMAS: Record<string, Record<string, unknown>> = {
  not_json_schema: { type: 'object', properties: { a: { type: 'strng' } } },
  dangling_ref: { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } },
  remote_ref: { type: 'object', properties: { a: { $ref: 'https://schemas.invalid/a.json' } } },
  too_deep: nested(100),
  too_large: {
    type: 'object',
    properties: Object.fromEntries(
      Array.from({ length: 3_000 }, (_, i) => [
        `field_${i}`,
        { type: 'string', description: 'x'.repeat(30) },
      ]),
    ),
  },
  backtracking: { type: 'object', properties: { a: { type: 'string', pattern: '^(a+)+$' } } },
  unknown_dialect: { $schema: 'http://json-schema.org/draft-03/schema#', type: 'object' },
};

describe('MCP tool arguments: checked against the server schema before the call', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let admin: TestUser;
  let user: TestUser;
  let server: TestMcpServer;
  let agent: string;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime({ ALLOW_PRIVATE_NETWORK_TARGETS: '127.0.0.1' }));
    admin = await ctx.newUser({ role: 'admin' });
    user = await ctx.newUser();
    const tools = [
      { name: 'lookup', description: 'Looks up a term.', inputSchema: LOOKUP_SCHEMA },
      { name: 'legacy_fetch', description: 'Fetches by id.', inputSchema: LEGACY_SCHEMA },
      ...Object.entries(BROKEN_SCHEMAS).map(([name, inputSchema]) => ({
        name,
        description: '',
        inputSchema,
      })),
    ];
    server = await TestMcpServer.start({
      transport: 'streamable_http',
      tools: [],
      respond: (message, _req, res) => {
        if (message.method === 'tools/list') {
          answer(res, message.id, { tools });
          return true;
        }
        if (message.method === 'tools/call') {
          const params = (message as { params?: { arguments?: unknown } }).params;
          answer(res, message.id, { content: [{ type: 'text', text: JSON.stringify(params?.arguments) }] });
          return true;
        }
        return false;
      },
    });
    const created = await ctx.http
      .post('/api/system/mcp-servers')
      .set(auth(admin))
      .send({ slug: 'schemas', name: 'schemas', transport: 'streamable_http', url: server.url });
    expect(created.status).toBe(201);
    const res = await ctx.http
      .post('/api/agents')
      .set(auth(user))
      .send({ name: 'Schema agent', config: { mcps: ['schemas'] } });
    expect(res.status).toBe(201);
    agent = res.body.slug as string;
  });

  beforeEach(() => fake.clearScript());

  afterAll(async () => {
    await close();
    await server.close();
  });

  async function run(input: string) {
    const threadId = await newThread(ctx, user, agent);
    const before = fake.requests.length;
    const started = await startRun(ctx, user, threadId, { input });
    const status = await waitForStatus(ctx, started.run_id, isTerminal);
    const events = await storedEvents(ctx, started.run_id);
    return { status, events, requests: fake.requests.slice(before) };
  }

  const errorOf = (content: unknown) =>
    (JSON.parse(String(content)) as { error: { code: string; details?: { issues?: unknown[] } } }).error;

  it("offers each tool's schema exactly as the server gave it and leaves out those that do not compile", async () => {
    fake.script({ text: 'nothing to do' });
    const { status, events, requests } = await run('look around');
    expect(status).toBe('completed');
    const offered = offeredTools(requests[0]);
    expect(offered).toEqual(expect.arrayContaining(['lookup', 'legacy_fetch']));
    for (const name of Object.keys(BROKEN_SCHEMAS)) expect(offered).not.toContain(name);
    const parameters = (name: string) =>
      requests[0].body.tools!.find((t) => t.function.name === name)!.function.parameters;
    expect(parameters('lookup')).toEqual(LOOKUP_SCHEMA);
    expect(parameters('legacy_fetch')).toEqual(LEGACY_SCHEMA);

    const unavailable = events
      .filter((e) => e.type === 'unavailable' && e.payload.component === 'mcp')
      .map((e) => e.payload);
    expect(unavailable).toHaveLength(Object.keys(BROKEN_SCHEMAS).length);
    for (const name of Object.keys(BROKEN_SCHEMAS)) {
      expect(unavailable).toContainEqual(
        expect.objectContaining({
          component: 'mcp',
          server: 'schemas',
          code: 'mcp.tool_schema_invalid',
          reason: expect.stringContaining(`"${name}"`),
        }),
      );
    }
  });

  it('refuses arguments that break the schema with tools.invalid_arguments; the server sees no call and the model corrects it', async () => {
    const callsBefore = server.calls().length;
    fake.script(
      {
        toolCalls: [
          { id: 'call_bad', name: 'lookup', args: { term: '', limit: 50, extra: true } },
          { id: 'call_bad_legacy', name: 'legacy_fetch', args: { ids: ['doc-1', 'Nope'] } },
        ],
      },
      {
        toolCalls: [
          { id: 'call_good', name: 'lookup', args: { term: 'lease', limit: 3, filter: { lang: 'en' } } },
          { id: 'call_good_legacy', name: 'legacy_fetch', args: { ids: ['doc-1'] } },
        ],
      },
      { text: 'done' },
    );
    const { status, events, requests } = await run('look it up');
    expect(status).toBe('completed');

    const sent = server.calls().slice(callsBefore);
    expect(sent.map((m) => [m.params?.name, m.params?.arguments])).toEqual([
      ['lookup', { term: 'lease', limit: 3, filter: { lang: 'en' } }],
      ['legacy_fetch', { ids: ['doc-1'] }],
    ]);

    const refused = errorOf(toolAnswer(requests[1].body.messages, 'call_bad')?.content);
    expect(refused.code).toBe('tools.invalid_arguments');
    expect(refused.details?.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'term' }),
        expect.objectContaining({ path: 'limit' }),
        expect.objectContaining({ path: 'extra' }),
      ]),
    );
    const refusedLegacy = errorOf(toolAnswer(requests[1].body.messages, 'call_bad_legacy')?.content);
    expect(refusedLegacy).toMatchObject({
      code: 'tools.invalid_arguments',
      details: { issues: [expect.objectContaining({ path: 'ids.1' })] },
    });
    const results = events.filter((e) => e.type === 'tool_result').map((e) => e.payload);
    expect(results).toContainEqual(expect.objectContaining({ tool_call_id: 'call_bad', is_error: true }));

    expect(toolAnswer(requests[2].body.messages, 'call_good')?.content).toBe(
      '{"term":"lease","limit":3,"filter":{"lang":"en"}}',
    );
    expect(toolAnswer(requests[2].body.messages, 'call_good_legacy')?.content).toBe('{"ids":["doc-1"]}');
  });

  it("compiles a server's schemas once per tool list, not per run or per call", async () => {
    fake.script({ text: 'warm' });
    expect((await run('list the tools once')).status).toBe('completed');
    const compile = jest.spyOn(ToolSchemaCompiler.prototype, 'compile');
    try {
      fake.script({ toolCalls: [{ id: 'call_1', name: 'lookup', args: { term: 'a' } }] }, { text: 'one' });
      expect((await run('first')).status).toBe('completed');
      fake.script({ toolCalls: [{ id: 'call_2', name: 'lookup', args: { term: 'b' } }] }, { text: 'two' });
      expect((await run('second')).status).toBe('completed');
      expect(compile).not.toHaveBeenCalled();
    } finally {
      compile.mockRestore();
    }
  });
});
