import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { randomUUID } from 'node:crypto';
import {
  noRuntimeCheck,
  type ToolExecutionContext,
} from '../../../src/modules/tools/execution/tool-execution-context';
import { ToolExecutor } from '../../../src/modules/tools/execution/tool-executor';
import { RunAuthorizationRevokedError } from '../../../src/modules/tools/tools.errors';
import { inSpan } from '../../../src/observability/tracing';
import { TestContext, type TestUser } from '../../support/test-app';
import { InMemoryTracing } from '../../support/tracing/in-memory-tracing';
import { ProbeToolsModule } from './probe-tools';

const ALL = ['probe_echo', 'probe_slow', 'probe_boom', 'probe_refuse', 'probe_revoke'];

describe('tool call spans (ToolExecutor)', () => {
  let tracing: InMemoryTracing;
  let ctx: TestContext;
  let executor: ToolExecutor;
  let user: TestUser;

  beforeAll(async () => {
    tracing = InMemoryTracing.start();
    ctx = await TestContext.start({}, [ProbeToolsModule]);
    executor = ctx.app.get(ToolExecutor);
    user = await ctx.newUser();
  });
  afterAll(async () => {
    await ctx.close();
    await tracing.stop();
  });
  beforeEach(() => tracing.reset());

  function context(signal?: AbortSignal): ToolExecutionContext {
    return {
      user: { id: user.id, role: 'user', departmentId: user.departmentId },
      runId: randomUUID(),
      threadId: randomUUID(),
      leaseToken: 'lease-1',
      workdir: '/home/gem/user-data/workdir/demo/',
      executableTools: new Set(ALL),
      visibleTools: new Set(ALL),
      isSubagent: false,
      signal,
      verifyAuthorization: noRuntimeCheck,
    };
  }

  it('nests under the span active when the call is made', async () => {
    await inSpan('run', {}, () =>
      executor.execute({ id: 'c-ok', name: 'probe_echo', args: { text: 'hi' } }, context()),
    );
    const run = tracing.one('run');
    const span = tracing.one('execute_tool probe_echo', SpanKind.INTERNAL);
    expect(span.parentSpanContext?.spanId).toBe(run.spanContext().spanId);
    expect(span.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'probe_echo',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.call.id': 'c-ok',
      'yuxi.tool.source': 'debug',
      'yuxi.tool.outcome': 'ok',
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('records each way a call ends: error, refused, timeout, cancelled, revoked', async () => {
    await executor.execute({ id: 'c-boom', name: 'probe_boom', args: {} }, context());
    await executor.execute({ id: 'c-refuse', name: 'probe_echo', args: { text: '' } }, context());
    await executor.execute({ id: 'c-slow', name: 'probe_slow', args: {} }, context());
    const cancel = new AbortController();
    const cancelled = executor.execute(
      { id: 'c-cancel', name: 'probe_slow', args: {} },
      context(cancel.signal),
    );
    setTimeout(() => cancel.abort(), 20);
    await cancelled;
    await expect(
      executor.execute({ id: 'c-revoke', name: 'probe_revoke', args: {} }, context()),
    ).rejects.toBeInstanceOf(RunAuthorizationRevokedError);

    const ends = tracing
      .spans()
      .map((span) => [
        span.attributes['gen_ai.tool.call.id'],
        span.attributes['yuxi.tool.outcome'],
        span.attributes['error.type'],
        span.status.code,
      ]);
    expect(ends).toEqual([
      ['c-boom', 'error', 'tools.failed', SpanStatusCode.ERROR],
      ['c-refuse', 'refused', 'tools.invalid_arguments', SpanStatusCode.ERROR],
      ['c-slow', 'timeout', 'tools.timeout', SpanStatusCode.ERROR],
      ['c-cancel', 'cancelled', 'tools.cancelled', SpanStatusCode.ERROR],
      ['c-revoke', 'revoked', 'auth.account_disabled', SpanStatusCode.ERROR],
    ]);
  });

  it('names an invented tool "(unknown)", keeping a cut copy of the name as an attribute', async () => {
    const invented = `x${'y'.repeat(500)}`;
    await executor.execute({ id: 'c-x', name: invented, args: {} }, context());
    const span = tracing.one('execute_tool (unknown)');
    expect(span.attributes['yuxi.tool.outcome']).toBe('refused');
    expect(span.attributes['yuxi.tool.requested_name']).toBe(invented.slice(0, 200));
    expect(span.attributes['yuxi.tool.source']).toBeUndefined();
  });
});
