import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { ToolCallAuditWriter } from '../../../src/modules/tools/execution/audit/tool-call-audit-writer';
import {
  auditRows,
  decide,
  runUntilSettled,
  waitingPoint,
  type Policy,
} from '../../support/approval/approval-runs';
import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { TestMcpServer } from '../../support/mcp/mcp-test-server';
import { toolAnswer } from '../../support/runs/model-requests';
import { storedEvents } from '../../support/runs/run-event-rows';
import { auth, isTerminal, newThread, waitForStatus } from '../../support/runs/run-helpers';
import { startRuntime } from '../../support/runs/runtime-context';
import { workdirFile } from '../../support/runs/workdir-files';
import { skillMd } from '../../support/skills';
import type { TestContext, TestUser } from '../../support/test-app';
import { marksOfRun } from '../improvement-marks/mark-rows';

const SERVER = 'warehouse';

describe('tool approval by where a tool comes from: MCP servers, commands, base tools, guards, skills', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let admin: TestUser;
  let user: TestUser;
  let mcp: TestMcpServer;
  /** The tables `drop_table`'s handler was run for, in order. */
  const dropped: string[] = [];

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime({ ALLOW_PRIVATE_NETWORK_TARGETS: '127.0.0.1' }));
    admin = await ctx.newUser({ role: 'admin' });
    user = await ctx.newUser();
    mcp = await TestMcpServer.start({
      transport: 'streamable_http',
      tools: [
        {
          name: 'drop_table',
          input: { table: z.string() },
          annotations: { destructiveHint: true },
          handler: (args) => {
            dropped.push(String(args.table));
            return { content: [{ type: 'text', text: `dropped ${String(args.table)}` }] };
          },
        },
        { name: 'read_rows', input: { table: z.string() }, annotations: { readOnlyHint: true } },
        { name: 'plain' },
      ],
    });
    await ctx.newMcpServer(admin, { slug: SERVER, url: mcp.url });
  });

  afterAll(async () => {
    await close();
    await mcp.close();
  });

  // A run a test leaves waiting never takes its last scripted reply: the next test starts clean.
  beforeEach(() => fake.clearScript());

  async function threadOf(config: Record<string, unknown>): Promise<string> {
    const { slug } = await ctx.newAgent(user, { config });
    return newThread(ctx, user, slug);
  }

  const mcpThread = (approval?: Policy) =>
    threadOf({ mcps: [SERVER], tools: [], ...(approval === undefined ? {} : { approval }) });

  /** The `tools/call` requests the MCP server received from `from` on: [tool, arguments]. */
  const mcpCallsSince = (from: number) =>
    mcp
      .calls()
      .slice(from)
      .map((m) => [m.params?.name, m.params?.arguments]);

  /** A turn dropping then reading `table`, then the model's last word. */
  function scriptDropAndRead(table = 'orders') {
    fake.script(
      {
        toolCalls: [
          { id: 'call_drop', name: 'drop_table', args: { table } },
          { id: 'call_read', name: 'read_rows', args: { table } },
        ],
      },
      { text: 'Done.' },
    );
  }

  /** The error code of the tool message answering `toolCallId` in the model's latest request. */
  const errorCodeOf = (toolCallId: string) =>
    (
      JSON.parse(String(toolAnswer(fake.requests.at(-1)!.body.messages, toolCallId)?.content)) as {
        error?: { code: string };
      }
    ).error?.code;

  describe('MCP tools', () => {
    it('auto asks only for the destructive tool, runs nothing of the turn before the decision, then all in order', async () => {
      const threadId = await mcpThread();
      const from = mcp.calls().length;
      const droppedBefore = dropped.length;
      scriptDropAndRead();
      const { runId, status } = await runUntilSettled(ctx, user, threadId);
      expect(status).toBe('waiting');

      const point = await waitingPoint(ctx, user, runId);
      expect(point.body).toMatchObject({ kind: 'approval', tool_call_id: 'call_drop', status: 'open' });
      expect(point.body.approvals).toEqual([
        {
          tool_call_id: 'call_drop',
          name: 'drop_table',
          args: { table: 'orders' },
          source: 'mcp',
          server: SERVER,
          reason: expect.stringContaining('destructive'),
          args_schema: expect.objectContaining({
            type: 'object',
            properties: { table: { type: 'string' } },
          }),
        },
      ]);
      // Not even the read-only call of the turn reached the server.
      expect(mcpCallsSince(from)).toEqual([]);
      expect(await auditRows(ctx, runId)).toEqual({});

      const answered = await decide(ctx, user, runId, { decisions: { call_drop: { decision: 'approve' } } });
      expect(answered.status).toBe(200);
      expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');
      expect(mcpCallsSince(from)).toEqual([
        ['drop_table', { table: 'orders' }],
        ['read_rows', { table: 'orders' }],
      ]);
      expect(dropped.slice(droppedBefore)).toEqual(['orders']);
      const rows = await auditRows(ctx, runId);
      expect(rows).toEqual({
        call_drop: expect.objectContaining({ outcome: 'ok', decision: 'approve', decided_by: user.id }),
        call_read: expect.objectContaining({ outcome: 'ok', decision: 'allow', decided_by: 'auto' }),
      });
    });

    it('auto lets a tool without annotations and a read-only one run without asking', async () => {
      const threadId = await mcpThread();
      const from = mcp.calls().length;
      fake.script(
        {
          toolCalls: [
            { id: 'call_plain', name: 'plain', args: {} },
            { id: 'call_read', name: 'read_rows', args: { table: 'items' } },
          ],
        },
        { text: 'Read.' },
      );
      const { runId, status } = await runUntilSettled(ctx, user, threadId);
      expect(status).toBe('completed');
      expect((await waitingPoint(ctx, user, runId)).status).toBe(404);
      expect(mcpCallsSince(from)).toEqual([
        ['plain', {}],
        ['read_rows', { table: 'items' }],
      ]);
      expect(await auditRows(ctx, runId)).toEqual({
        call_plain: expect.objectContaining({ outcome: 'ok', decision: 'allow', decided_by: 'auto' }),
        call_read: expect.objectContaining({ outcome: 'ok', decision: 'allow', decided_by: 'auto' }),
      });
    });

    it('a rejected MCP call never reaches the server; the rest of the turn runs', async () => {
      const threadId = await mcpThread();
      const from = mcp.calls().length;
      const droppedBefore = dropped.length;
      scriptDropAndRead();
      const { runId } = await runUntilSettled(ctx, user, threadId);
      const res = await decide(ctx, user, runId, {
        decisions: { call_drop: { decision: 'reject', message: 'Keep the orders.' } },
      });
      expect(res.status).toBe(200);
      expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');
      expect(mcpCallsSince(from)).toEqual([['read_rows', { table: 'orders' }]]);
      expect(dropped.slice(droppedBefore)).toEqual([]);
      expect(errorCodeOf('call_drop')).toBe('tools.rejected_by_user');
      expect((await auditRows(ctx, runId)).call_drop).toMatchObject({
        outcome: 'refused',
        error_code: 'tools.rejected_by_user',
        decision: 'reject',
      });
    });

    it('a rule on mcp:<server>:<glob> denies the MCP tool without asking; the server never sees it', async () => {
      const threadId = await mcpThread({ rules: [{ tool: `mcp:${SERVER}:drop_*`, decision: 'deny' }] });
      const from = mcp.calls().length;
      scriptDropAndRead();
      const { runId, status } = await runUntilSettled(ctx, user, threadId);
      expect(status).toBe('completed');
      expect((await waitingPoint(ctx, user, runId)).status).toBe(404);
      expect(mcpCallsSince(from)).toEqual([['read_rows', { table: 'orders' }]]);
      expect(errorCodeOf('call_drop')).toBe('tools.denied_by_policy');
      expect((await auditRows(ctx, runId)).call_drop).toMatchObject({
        outcome: 'refused',
        decision: 'deny',
        decided_by: 'rule:1',
      });
    });

    it('a rule naming the bare tool does not match the MCP tool: auto still asks', async () => {
      const threadId = await mcpThread({ rules: [{ tool: 'drop_table', decision: 'deny' }] });
      const from = mcp.calls().length;
      scriptDropAndRead();
      const { runId, status } = await runUntilSettled(ctx, user, threadId);
      expect(status).toBe('waiting');
      const point = await waitingPoint(ctx, user, runId);
      expect(point.body.approvals).toEqual([
        expect.objectContaining({
          tool_call_id: 'call_drop',
          source: 'mcp',
          server: SERVER,
          reason: expect.stringContaining('destructive'),
        }),
      ]);
      expect(mcpCallsSince(from)).toEqual([]);
      await ctx.http.post(`/api/runs/${runId}/cancel`).set(auth(user));
      expect(await waitForStatus(ctx, runId, isTerminal)).toBe('cancelled');
      expect(mcpCallsSince(from)).toEqual([]);
    });

    it('remember: "thread" stores mcp:<server>:<tool>; the next run of the thread does not ask', async () => {
      const threadId = await mcpThread();
      scriptDropAndRead('first');
      const first = await runUntilSettled(ctx, user, threadId);
      const res = await decide(ctx, user, first.runId, {
        decisions: { call_drop: { decision: 'approve', remember: 'thread' } },
      });
      expect(res.status).toBe(200);
      expect(await waitForStatus(ctx, first.runId, isTerminal)).toBe('completed');
      const stored = await ctx.dataSource.query<{ tool: string; approved_by: string }[]>(
        `SELECT tool, approved_by FROM thread_tool_approvals WHERE thread_id = $1`,
        [threadId],
      );
      expect(stored).toEqual([{ tool: `mcp:${SERVER}:drop_table`, approved_by: user.id }]);

      const from = mcp.calls().length;
      scriptDropAndRead('second');
      const second = await runUntilSettled(ctx, user, threadId);
      expect(second.status).toBe('completed');
      expect((await waitingPoint(ctx, user, second.runId)).status).toBe(404);
      expect(mcpCallsSince(from)).toEqual([
        ['drop_table', { table: 'second' }],
        ['read_rows', { table: 'second' }],
      ]);
      expect((await auditRows(ctx, second.runId)).call_drop).toMatchObject({
        outcome: 'ok',
        decision: 'allow',
        decided_by: 'thread',
      });
    });

    it("an edit is checked against the MCP tool's input schema (400 naming the field), then runs as edited", async () => {
      const threadId = await mcpThread();
      const from = mcp.calls().length;
      scriptDropAndRead();
      const { runId } = await runUntilSettled(ctx, user, threadId);

      const bad = await decide(ctx, user, runId, {
        decisions: { call_drop: { decision: 'edit', args: { table: 7 } } },
      });
      expect([bad.status, bad.body.code]).toEqual([400, 'common.validation_failed']);
      expect(bad.body.details.fields).toEqual([
        { field: 'decisions.call_drop', messages: [expect.stringContaining('args.table')] },
      ]);
      expect((await waitingPoint(ctx, user, runId)).body.status).toBe('open');
      expect(mcpCallsSince(from)).toEqual([]);

      const edited = await decide(ctx, user, runId, {
        decisions: { call_drop: { decision: 'edit', args: { table: 'scratch' } } },
      });
      expect(edited.status).toBe(200);
      expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');
      expect(mcpCallsSince(from)).toEqual([
        ['drop_table', { table: 'scratch' }],
        ['read_rows', { table: 'orders' }],
      ]);
    });
  });

  describe('commands (execute)', () => {
    it('auto asks before any sandbox starts: the command leaves no trace until approved', async () => {
      const threadId = await threadOf({ tools: ['execute'] });
      const marker = workdirFile(ctx, user.id, threadId, 'approved-marker.txt');
      fake.script(
        { toolCalls: [{ id: 'call_x', name: 'execute', args: { command: 'touch approved-marker.txt' } }] },
        { text: 'Touched.' },
      );
      const { runId, status } = await runUntilSettled(ctx, user, threadId);
      expect(status).toBe('waiting');
      const point = await waitingPoint(ctx, user, runId);
      expect(point.body.approvals).toEqual([
        {
          tool_call_id: 'call_x',
          name: 'execute',
          args: { command: 'touch approved-marker.txt' },
          source: 'builtin',
          reason: 'it runs a command',
          args_schema: expect.objectContaining({ type: 'object' }),
        },
      ]);
      expect(existsSync(marker)).toBe(false);
      expect(await auditRows(ctx, runId)).toEqual({});

      await decide(ctx, user, runId, { decisions: { call_x: { decision: 'approve' } } });
      expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');
      const result = (await storedEvents(ctx, runId)).find((e) => e.type === 'tool_result')!.payload;
      expect(result).toMatchObject({ tool_call_id: 'call_x', is_error: false });
      expect(JSON.parse(result.content as string)).toMatchObject({ exit_code: 0 });
      expect(existsSync(marker)).toBe(true);
    }, 30_000);
  });

  describe('base tools are never asked about', () => {
    it('ask_user_question under default "ask" gives a questions point, not an approval', async () => {
      const threadId = await threadOf({ tools: [], approval: { default: 'ask' } });
      fake.script(
        {
          toolCalls: [
            { id: 'call_q', name: 'ask_user_question', args: { questions: [{ question: 'Go on?' }] } },
          ],
        },
        { text: 'Going on.' },
      );
      const { runId, status } = await runUntilSettled(ctx, user, threadId);
      expect(status).toBe('waiting');
      const point = await waitingPoint(ctx, user, runId);
      expect(point.body).toMatchObject({
        kind: 'questions',
        tool_call_id: 'call_q',
        questions: [expect.objectContaining({ question: 'Go on?' })],
        status: 'open',
      });
      expect(point.body.approvals).toBeUndefined();
      const answered = await ctx.http
        .post(`/api/runs/${runId}/answers`)
        .set(auth(user))
        .send({ answers: { 'q-1': 'yes' } });
      expect(answered.status).toBe(200);
      expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');
      // The call's node runs again when the answered run resumes: a row per execution, each decided alike.
      await ctx.app.get(ToolCallAuditWriter).flush();
      const rows = await ctx.dataSource.query<{ decision: string; decided_by: string }[]>(
        `SELECT decision, decided_by FROM tool_calls WHERE run_id = $1 AND tool_call_id = 'call_q'`,
        [runId],
      );
      expect(rows.length).toBeGreaterThan(0);
      expect(new Set(rows.map((row) => `${row.decision} by ${row.decided_by}`))).toEqual(
        new Set(['allow by base']),
      );
    });

    it('mark_for_improvement runs even when a rule denies every tool', async () => {
      const threadId = await threadOf({
        tools: [],
        approval: { default: 'ask', rules: [{ tool: '*', decision: 'deny' }] },
      });
      fake.script(
        {
          toolCalls: [
            { id: 'call_mark', name: 'mark_for_improvement', args: { reason: 'The search tool timed out.' } },
          ],
        },
        { text: 'Noted.' },
      );
      const { runId, status } = await runUntilSettled(ctx, user, threadId);
      expect(status).toBe('completed');
      expect((await waitingPoint(ctx, user, runId)).status).toBe(404);
      expect((await marksOfRun(ctx, runId)).map((mark) => [mark.tool_call_id, mark.reason])).toEqual([
        ['call_mark', 'The search tool timed out.'],
      ]);
      expect((await auditRows(ctx, runId)).call_mark).toMatchObject({
        outcome: 'ok',
        decision: 'allow',
        decided_by: 'base',
      });
    });
  });

  it('a call an authorization guard refuses is never asked about: the model gets the guard’s error', async () => {
    const threadId = await threadOf({ tools: ['write_file'], approval: { default: 'ask' } });
    const outside = `/tmp/approval-outside-${process.pid}.txt`;
    fake.script(
      {
        toolCalls: [
          { id: 'call_none', name: 'not_a_tool', args: {} },
          { id: 'call_out', name: 'write_file', args: { file_path: outside, content: 'x' } },
        ],
      },
      { text: 'Could not.' },
    );
    const { runId, status } = await runUntilSettled(ctx, user, threadId);
    expect(status).toBe('completed');
    expect((await waitingPoint(ctx, user, runId)).status).toBe(404);
    expect(errorCodeOf('call_none')).toBe('tools.not_executable');
    expect(errorCodeOf('call_out')).toBe('workspace.path_not_allowed');
    expect(existsSync(outside)).toBe(false);
    const rows = await auditRows(ctx, runId);
    // Refused before the policy was consulted: no decision recorded.
    expect(rows.call_none).toMatchObject({ outcome: 'refused', decision: null, decided_by: null });
    expect(rows.call_out).toMatchObject({ decision: null, decided_by: null });
    expect(rows.call_out.outcome).not.toBe('ok');
  });

  it('a tool only a skill brought is shown with source "skill"', async () => {
    const skill = await ctx.newSharedSkill(
      admin,
      { 'SKILL.md': skillMd('approval-writer', ['tool_dependencies: [write_file]']) },
      { version: 2, read_scope: { level: 'users', user_ids: [user.id, admin.id] } },
    );
    const threadId = await threadOf({
      tools: [],
      skills: [skill],
      preload_skills: [skill],
      approval: { default: 'ask' },
    });
    fake.script(
      {
        toolCalls: [
          { id: 'call_w', name: 'write_file', args: { file_path: 'skill.md', content: 'by skill' } },
        ],
      },
      { text: 'Written.' },
    );
    const { runId, status } = await runUntilSettled(ctx, user, threadId);
    expect(status).toBe('waiting');
    const point = await waitingPoint(ctx, user, runId);
    expect(point.body.approvals).toEqual([
      expect.objectContaining({ tool_call_id: 'call_w', name: 'write_file', source: 'skill' }),
    ]);
    expect(point.body.approvals[0].server).toBeUndefined();
    const file = workdirFile(ctx, user.id, threadId, 'skill.md');
    expect(existsSync(file)).toBe(false);
    await decide(ctx, user, runId, { decisions: { call_w: { decision: 'approve' } } });
    expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');
    expect(readFileSync(file, 'utf8')).toBe('by skill');
  });
});
