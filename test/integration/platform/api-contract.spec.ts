import { declaredCodesInSource } from '../../support/error-code-sources';
import { apiOperations, describeOperation, type ApiOperation } from '../../support/openapi-routes';
import { storedEvents } from '../../support/runs/run-event-rows';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { type RuntimeContext, startRuntime } from '../../support/runs/runtime-context';
import { TestContext } from '../../support/test-app';

interface SwaggerDocument {
  components: { schemas: { ErrorEnvelopeDto: { properties: { code: { enum?: string[] } } } } };
}

describe('the API contract as served', () => {
  let runtime: RuntimeContext;
  let api: TestContext;
  let operations: ApiOperation[];
  let document: SwaggerDocument;
  const source = declaredCodesInSource();

  beforeAll(async () => {
    runtime = await startRuntime();
    // The document as an API-only process serves it: that process never loads the worker's code.
    api = await TestContext.start({ APP_ROLE: 'api' });
    operations = await apiOperations(api);
    document = (await api.http.get('/api/docs-json')).body as SwaggerDocument;
  });
  afterAll(async () => {
    await api?.close();
    await runtime?.close();
  });

  it('lists every code declared in a *.errors.ts file in the Swagger document, and no other', () => {
    expect(source.codes.size).toBeGreaterThan(100);
    const listed = document.components.schemas.ErrorEnvelopeDto.properties.code.enum ?? [];
    expect([...source.codes].filter((code) => !listed.includes(code))).toEqual([]);
    expect(listed.filter((code) => !source.codes.has(code))).toEqual([]);
  });

  it("documents each route's codes under the status their errors are raised with", () => {
    const misplaced: string[] = [];
    for (const op of operations) {
      for (const [status, codes] of Object.entries(op.errorCodes)) {
        for (const code of codes) {
          const statuses = source.statuses.get(code);
          if (!source.codes.has(code))
            misplaced.push(`${describeOperation(op)} ${status}: ${code} is not declared`);
          else if (statuses !== undefined && !statuses.has(Number(status)))
            misplaced.push(
              `${describeOperation(op)} ${status}: ${code} is raised as ${[...statuses].join('/')}`,
            );
        }
      }
    }
    expect(misplaced).toEqual([]);
  });

  it('documents on every route the codes any route may answer', () => {
    const missing: string[] = [];
    for (const op of operations) {
      const expected: [string, string][] = [
        ['400', 'common.validation_failed'],
        ['503', 'common.dependency_unavailable'],
      ];
      if (op.secured) expected.push(['401', 'auth.token_revoked'], ['401', 'auth.missing_credentials']);
      if (op.method !== 'get') {
        expected.push(
          ['400', 'common.malformed_json'],
          ['413', 'common.payload_too_large'],
          ['409', 'common.concurrent_update'],
        );
      }
      for (const [status, code] of expected) {
        // These answer their own report as 503.
        if (['/api/health', '/api/health/ready'].includes(op.path) && status === '503') continue;
        if (!(op.errorCodes[status] ?? []).includes(code))
          missing.push(`${describeOperation(op)} ${status} ${code}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('sends waiting events with kind "questions" and unavailable events as {component, reason, available: false}', async () => {
    const { ctx, fake } = runtime;
    const user = await ctx.newUser();
    const agent = await ctx.http
      .post('/api/agents')
      .set(auth(user))
      .send({ name: 'Contract', slug: 'contract-probe', config: { tools: ['web_search'] } });
    expect(agent.status).toBe(201);
    fake.script({
      toolCalls: [{ id: 'call_q', name: 'ask_user_question', args: { questions: [{ question: 'Name?' }] } }],
    });
    const threadId = await newThread(ctx, user, 'contract-probe');
    const { run_id: runId } = await startRun(ctx, user, threadId, { input: 'go' });
    expect(await waitForStatus(ctx, runId, (s) => s === 'waiting' || isTerminal(s))).toBe('waiting');
    const events = await storedEvents(ctx, runId);
    // web_search has no vendor key here: left out of the run, and said so.
    expect(events.filter((e) => e.type === 'unavailable').map((e) => e.payload)).toEqual([
      { component: 'web_search', reason: expect.stringContaining('API key'), available: false },
    ]);
    const point = await ctx.http.get(`/api/runs/${runId}/waiting-point`).set(auth(user));
    expect(events.filter((e) => e.type === 'waiting').map((e) => e.payload)).toEqual([
      {
        waiting_point_id: point.body.id,
        kind: 'questions',
        tool_call_id: 'call_q',
        questions: point.body.questions,
      },
    ]);
    expect(point.body.kind).toBe('questions');
  });
});
