import { randomUUID } from 'node:crypto';
import {
  noRuntimeCheck,
  type DirectToolContext,
  type ToolCall,
  type ToolExecutionContext,
} from '../../../src/modules/tools/execution/tool-execution-context';
import { ToolCallAuditWriter } from '../../../src/modules/tools/execution/audit/tool-call-audit-writer';
import { ToolExecutor } from '../../../src/modules/tools/execution/tool-executor';
import { ToolRegistry } from '../../../src/modules/tools/registry/tool-registry';
import { ToolMetrics, UNKNOWN_TOOL_METRIC } from '../../../src/modules/tools/execution/tool-metrics';
import { RunAuthorizationRevokedError } from '../../../src/modules/tools/tools.errors';
import { TestContext, type TestUser } from '../../support/test-app';
import { ProbeTools, ProbeToolsModule } from './probe-tools';

const ALL = [
  'probe_echo',
  'probe_slow',
  'probe_boom',
  'probe_refuse',
  'probe_revoke',
  'probe_kb',
  'probe_file',
  'probe_parent_only',
];

type ContextOverrides = Partial<Omit<DirectToolContext, 'verifyAuthorization'>> & {
  verifyAuthorization?: () => Promise<void>;
};

describe('ToolExecutor: the execution boundary', () => {
  let ctx: TestContext;
  let executor: ToolExecutor;
  let probe: ProbeTools;
  let user: TestUser;

  beforeAll(async () => {
    ctx = await TestContext.start({}, [ProbeToolsModule]);
    executor = ctx.app.get(ToolExecutor);
    probe = ctx.app.get(ProbeTools);
    user = await ctx.newUser();
  });
  afterAll(() => ctx.close());

  /** A direct call; given the runtime's check, the same call as a run makes it (with its offered tools). */
  function context(overrides: ContextOverrides = {}): ToolExecutionContext {
    const { verifyAuthorization, ...rest } = overrides;
    const fields = {
      user: { id: user.id, role: 'user' as const, departmentId: user.departmentId },
      runId: randomUUID(),
      threadId: randomUUID(),
      leaseToken: 'lease-1',
      workdir: '/home/gem/user-data/workdir/demo/',
      executableTools: new Set(ALL),
      visibleTools: new Set(ALL),
      isSubagent: false,
      ...rest,
    };
    if (verifyAuthorization === undefined) return { ...fields, verifyAuthorization: noRuntimeCheck };
    const registry = ctx.app.get(ToolRegistry);
    return {
      ...fields,
      offeredTools: new Map(ALL.map((name) => [name, registry.get(name)!])),
      verifyAuthorization,
    };
  }

  const auditRows = async (runId: string) => {
    await ctx.app.get(ToolCallAuditWriter).flush();
    return ctx.dataSource.query(
      `SELECT tool_call_id, tool_name, user_id, outcome, error_code, args_digest, duration_ms FROM tool_calls WHERE run_id = $1 ORDER BY created_at`,
      [runId],
    );
  };

  it('runs a valid call, binds the result to its tool_call_id, and audits it', async () => {
    const c = context();
    const result = await executor.execute(
      { id: 'call-1', name: 'probe_echo', args: { text: '  hi  ', times: 2 } },
      c,
    );
    expect(result).toEqual({
      toolCallId: 'call-1',
      name: 'probe_echo',
      content: JSON.stringify({ echoed: 'hi hi' }),
      isError: false,
      outcome: 'ok',
      errorCode: null,
    });
    const rows = await auditRows(c.runId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      tool_call_id: 'call-1',
      tool_name: 'probe_echo',
      user_id: user.id,
      outcome: 'ok',
      error_code: null,
    });
    expect(rows[0].args_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('gives equal argument digests for equal arguments in another key order, and never stores the arguments', async () => {
    const c = context();
    await executor.execute({ id: 'a', name: 'probe_echo', args: { text: 'secret-value', times: 1 } }, c);
    await executor.execute({ id: 'b', name: 'probe_echo', args: { times: 1, text: 'secret-value' } }, c);
    const rows = await auditRows(c.runId);
    expect(rows[0].args_digest).toBe(rows[1].args_digest);
    expect(JSON.stringify(rows)).not.toContain('secret-value');
  });

  it.each([
    [
      'a tool that is not executable in this run',
      { executableTools: new Set(['probe_kb']) },
      'tools.not_executable',
    ],
    ['a tool hidden from the model this turn', { visibleTools: new Set(['probe_kb']) }, 'tools.not_visible'],
  ])('refuses %s before its handler runs', async (_, overrides, code) => {
    const before = probe.calls.probe_echo ?? 0;
    const c = context(overrides);
    const result = await executor.execute({ id: 'call-x', name: 'probe_echo', args: { text: 'x' } }, c);
    expect(result).toMatchObject({
      toolCallId: 'call-x',
      isError: true,
      outcome: 'refused',
      errorCode: code,
    });
    expect(JSON.parse(result.content).error.code).toBe(code);
    expect(probe.calls.probe_echo ?? 0).toBe(before);
    expect((await auditRows(c.runId))[0]).toMatchObject({ outcome: 'refused', error_code: code });
  });

  it('refuses an unknown tool name', async () => {
    const result = await executor.execute(
      { id: 'u', name: 'no_such_tool', args: {} },
      context({ executableTools: new Set(['no_such_tool']), visibleTools: new Set(['no_such_tool']) }),
    );
    expect(result).toMatchObject({ outcome: 'refused', errorCode: 'tools.not_executable' });
  });

  it('refuses subagent-forbidden tools in a subagent run only', async () => {
    const sub = await executor.execute(
      { id: 's', name: 'probe_parent_only', args: {} },
      context({ isSubagent: true }),
    );
    expect(sub).toMatchObject({ outcome: 'refused', errorCode: 'tools.forbidden_for_subagent' });
    expect(probe.calls.probe_parent_only ?? 0).toBe(0);
    const parent = await executor.execute({ id: 'p', name: 'probe_parent_only', args: {} }, context());
    expect(parent).toMatchObject({ outcome: 'ok', content: 'ok' });
  });

  it('returns argument errors to the model with the failing fields, without calling the handler', async () => {
    const before = probe.calls.probe_echo ?? 0;
    for (const args of [
      { text: '   ' },
      { text: 'x', extra: true },
      '{"text":"x"}',
      { text: 'x', times: '2' },
    ]) {
      const result = await executor.execute({ id: 'bad', name: 'probe_echo', args }, context());
      expect(result).toMatchObject({ isError: true, errorCode: 'tools.invalid_arguments' });
      expect(JSON.parse(result.content).error.details.issues.length).toBeGreaterThan(0);
    }
    expect(probe.calls.probe_echo ?? 0).toBe(before);
  });

  it('checks the concrete target against the caller, and refuses targets nobody authorizes', async () => {
    const own = await executor.execute(
      { id: 'k1', name: 'probe_kb', args: { kb_id: `kb-${user.id}` } },
      context(),
    );
    expect(own).toMatchObject({ outcome: 'ok', content: `read kb-${user.id}` });
    const foreign = await executor.execute(
      { id: 'k2', name: 'probe_kb', args: { kb_id: 'kb-someone-else' } },
      context(),
    );
    expect(foreign).toMatchObject({ outcome: 'refused', errorCode: 'knowledge.kb_not_found' });
    expect(probe.calls.probe_kb).toBe(1);

    const file = await executor.execute({ id: 'f', name: 'probe_file', args: { file_id: 'f1' } }, context());
    expect(file).toMatchObject({ outcome: 'refused', errorCode: 'tools.resource_unauthorized' });
    expect(probe.calls.probe_file ?? 0).toBe(0);
  });

  it('turns domain errors and unexpected errors into structured results without internals', async () => {
    const refused = await executor.execute({ id: 'r', name: 'probe_refuse', args: {} }, context());
    expect(JSON.parse(refused.content)).toEqual({
      error: { code: 'probe.nope', message: 'Not today.', details: { why: 'test' } },
    });
    expect(refused.outcome).toBe('error');

    const boom = await executor.execute({ id: 'b', name: 'probe_boom', args: {} }, context());
    expect(boom).toMatchObject({ isError: true, outcome: 'error', errorCode: 'tools.failed' });
    expect(boom.content).not.toContain('hunter2');
  });

  it('times out a call that takes too long and aborts its signal', async () => {
    const c = context();
    const started = Date.now();
    const result = await executor.execute({ id: 't', name: 'probe_slow', args: {} }, c);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(result).toMatchObject({ outcome: 'timeout', errorCode: 'tools.timeout' });
    expect(probe.lastSignal?.aborted).toBe(true);
    expect((await auditRows(c.runId))[0]).toMatchObject({ outcome: 'timeout' });
  });

  it('ends a call when the run is cancelled', async () => {
    const controller = new AbortController();
    const pending = executor.execute(
      { id: 'c', name: 'probe_slow', args: {} },
      context({ signal: controller.signal }),
    );
    setTimeout(() => controller.abort(), 20);
    expect(await pending).toMatchObject({ isError: true, errorCode: 'tools.cancelled' });
  });

  it('lets a revoked authorization end the run instead of becoming a result', async () => {
    await expect(
      executor.execute({ id: 'v', name: 'probe_revoke', args: {} }, context()),
    ).rejects.toBeInstanceOf(RunAuthorizationRevokedError);
  });

  it('ends the run before any handler when the runtime finds its authorization revoked', async () => {
    const before = probe.calls.probe_echo ?? 0;
    const revoked = context({
      verifyAuthorization: () =>
        Promise.reject(new RunAuthorizationRevokedError('runs.lease_lost', 'lease lost')),
    });
    await expect(
      executor.execute({ id: 'l', name: 'probe_echo', args: { text: 'x' } }, revoked),
    ).rejects.toMatchObject({ code: 'runs.lease_lost' });
    expect(probe.calls.probe_echo ?? 0).toBe(before);
    const allowed = context({ verifyAuthorization: () => Promise.resolve() });
    expect(
      await executor.execute({ id: 'm', name: 'probe_echo', args: { text: 'x' } }, allowed),
    ).toMatchObject({
      outcome: 'ok',
    });
  });

  it('counts calls per tool and outcome', () => {
    const echo = ctx.app
      .get(ToolMetrics)
      .snapshot()
      .find((s) => s.tool === 'probe_echo');
    expect(echo?.calls).toBeGreaterThanOrEqual(3);
    expect(echo?.outcomes.refused).toBeGreaterThanOrEqual(2);
    expect(echo?.outcomes.ok).toBeGreaterThanOrEqual(3);
  });

  it('counts calls to names no tool has under one bucket, so model-invented names cannot grow the metrics', async () => {
    const metrics = ctx.app.get(ToolMetrics);
    const unknownBefore = metrics.snapshot().find((s) => s.tool === UNKNOWN_TOOL_METRIC)?.calls ?? 0;
    const c = context();
    for (let i = 0; i < 300; i += 1) {
      const name = `invented_${i}`;
      const result = await executor.execute(
        { id: `n${i}`, name, args: {} },
        { ...c, executableTools: new Set([name]), visibleTools: new Set([name]) },
      );
      expect(result.errorCode).toBe('tools.not_executable');
    }
    await executor.execute({ id: 'known', name: 'probe_echo', args: { text: 'x' } }, c);
    const snapshot = metrics.snapshot();
    expect(snapshot.filter((s) => s.tool.startsWith('invented_'))).toEqual([]);
    expect(snapshot.map((s) => s.tool).every((t) => t === UNKNOWN_TOOL_METRIC || ALL.includes(t))).toBe(true);
    const unknown = snapshot.find((s) => s.tool === UNKNOWN_TOOL_METRIC);
    expect(unknown?.calls).toBe(unknownBefore + 300);
    expect(unknown?.outcomes.refused).toBe(unknownBefore + 300);
  });

  it('audits calls whose tool name and call id exceed the audit columns or hold NUL, cut and cleaned', async () => {
    const c = context();
    const name = 'x'.repeat(5_000);
    const result = await executor.execute({ id: 'i'.repeat(1_000), name, args: {} }, c);
    expect(result.errorCode).toBe('tools.not_executable');
    await executor.execute({ id: 'nul\0id', name: 'nul\0name', args: {} }, c);
    const rows = await auditRows(c.runId);
    expect(rows).toHaveLength(2);
    expect(rows.find((r: { tool_call_id: string }) => r.tool_call_id === 'nulid')).toMatchObject({
      tool_name: 'nulname',
    });
    expect(rows[0]).toMatchObject({
      tool_name: 'x'.repeat(200),
      tool_call_id: 'i'.repeat(200),
      outcome: 'refused',
      error_code: 'tools.not_executable',
    });
  });

  describe('audit and metrics around the whole pipeline', () => {
    const leaseLost = () => Promise.reject(new RunAuthorizationRevokedError('runs.lease_lost', 'lease lost'));

    it.each<[string, Omit<ToolCall, 'id'>, ContextOverrides, string, string | null]>([
      ['a call that succeeds', { name: 'probe_echo', args: { text: 'x' } }, {}, 'ok', null],
      [
        'a call to a tool hidden this turn',
        { name: 'probe_echo', args: { text: 'x' } },
        { visibleTools: new Set(['probe_kb']) },
        'refused',
        'tools.not_visible',
      ],
      [
        'a subagent calling a tool forbidden to subagents',
        { name: 'probe_parent_only', args: {} },
        { isSubagent: true },
        'refused',
        'tools.forbidden_for_subagent',
      ],
      [
        'a call with invalid arguments',
        { name: 'probe_echo', args: { text: ' ' } },
        {},
        'refused',
        'tools.invalid_arguments',
      ],
      ['a handler that fails', { name: 'probe_refuse', args: {} }, {}, 'error', 'probe.nope'],
      ['a handler that times out', { name: 'probe_slow', args: {} }, {}, 'timeout', 'tools.timeout'],
      [
        'a call in a cancelled run',
        { name: 'probe_slow', args: {} },
        { signal: AbortSignal.abort() },
        'cancelled',
        'tools.cancelled',
      ],
      [
        "a call refused because the runtime finds the run's authorization revoked",
        { name: 'probe_echo', args: { text: 'x' } },
        { verifyAuthorization: leaseLost },
        'revoked',
        'runs.lease_lost',
      ],
      [
        'a handler that finds the run revoked',
        { name: 'probe_revoke', args: {} },
        {},
        'revoked',
        'auth.account_disabled',
      ],
    ])(
      'leaves exactly one audit row and one metric count for %s',
      async (_, call, overrides, outcome, code) => {
        const metrics = ctx.app.get(ToolMetrics);
        const countsOf = () => {
          const stats = metrics.snapshot().find((s) => s.tool === call.name);
          const outcomes: Record<string, number> = stats?.outcomes ?? {};
          return { calls: stats?.calls ?? 0, outcome: outcomes[outcome] ?? 0 };
        };
        const before = countsOf();
        const c = context(overrides);

        const ended = await executor.execute({ id: 'call-once', ...call }, c).then(
          (result) => ({ result }),
          (thrown: unknown) => ({ thrown }),
        );

        if (outcome === 'revoked') {
          expect(ended).toEqual({ thrown: expect.any(RunAuthorizationRevokedError) });
        } else {
          expect(ended).toEqual({ result: expect.objectContaining({ outcome, errorCode: code }) });
        }
        expect(await auditRows(c.runId)).toEqual([
          expect.objectContaining({
            tool_call_id: 'call-once',
            tool_name: call.name,
            user_id: user.id,
            outcome,
            error_code: code,
          }),
        ]);
        expect(countsOf()).toEqual({ calls: before.calls + 1, outcome: before.outcome + 1 });
      },
    );
  });
});
