import { z } from 'zod';
import { SkillEntity } from '../../../src/modules/skills/storage/skill.entity';
import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { TestMcpServer } from '../../support/mcp/mcp-test-server';
import { offeredTools, toolAnswer } from '../../support/runs/model-requests';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { startRuntime } from '../../support/runs/runtime-context';
import { skillMd } from '../../support/skills';
import { personalSkillPath, sharedSkillPath } from '../../support/skills-runtime';
import type { TestContext, TestUser } from '../../support/test-app';

describe('skills: tool gating, progressive activation, preload', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let admin: TestUser;
  let mcp: TestMcpServer;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime({ ALLOW_PRIVATE_NETWORK_TARGETS: '127.0.0.1' }));
    admin = await ctx.newUser({ role: 'admin' });
    mcp = await TestMcpServer.start({
      transport: 'streamable_http',
      tools: [{ name: 'gate_lookup', description: 'Looks up a term.', input: { term: z.string() } }],
    });
    await ctx.newMcpServer(admin, { slug: 'gate-server', name: 'gate', url: mcp.url });
  });
  afterAll(async () => {
    await close();
    await mcp.close();
  });

  const sharedWith = (...users: TestUser[]) => ({
    version: 2 as const,
    read_scope: { level: 'users' as const, user_ids: users.map((u) => u.id) },
  });
  /** The error code of a tool result, or undefined for a successful one (plain text). */
  const errorCode = (content: unknown): string | undefined => {
    try {
      return (JSON.parse(String(content)) as { error?: { code: string } }).error?.code;
    } catch {
      return undefined;
    }
  };
  const state = async (user: TestUser, threadId: string) =>
    (await ctx.http.get(`/api/threads/${threadId}/state`).set(auth(user))).body as {
      activated_skills: string[];
    };

  it('hides a tool only a skill needs, refuses it, ignores failed and out-of-run reads, opens it after read_file of SKILL.md, and keeps it across a resume', async () => {
    const user = await ctx.newUser();
    const gated = await ctx.newSharedSkill(
      admin,
      { 'SKILL.md': skillMd('gate-writer', ['tool_dependencies: [write_file]']) },
      sharedWith(user, admin),
    );
    const outside = await ctx.newSharedSkill(
      admin,
      { 'SKILL.md': skillMd('gate-outside') },
      sharedWith(user, admin),
    );
    const agent = (
      await ctx.newAgent(user, { name: 'Gated agent', config: { tools: ['read_file'], skills: [gated] } })
    ).slug;
    const threadId = await newThread(ctx, user, agent);
    const start = fake.requests.length;
    fake.script(
      { toolCalls: [{ id: 'c_early', name: 'write_file', args: { file_path: 'x.md', content: 'x' } }] },
      {
        toolCalls: [
          { id: 'c_bad', name: 'read_file', args: { file_path: sharedSkillPath(gated), limit: -1 } },
        ],
      },
      { toolCalls: [{ id: 'c_out', name: 'read_file', args: { file_path: sharedSkillPath(outside) } }] },
      { toolCalls: [{ id: 'c_read', name: 'read_file', args: { file_path: sharedSkillPath(gated) } }] },
      {
        toolCalls: [
          { id: 'c_ask', name: 'ask_user_question', args: { questions: [{ question: 'Go on?' }] } },
        ],
      },
      { toolCalls: [{ id: 'c_write', name: 'write_file', args: { file_path: 'y.md', content: 'y' } }] },
      { text: 'done' },
    );
    const { run_id: runId } = await startRun(ctx, user, threadId, { input: 'use the skill' });
    expect(await waitForStatus(ctx, runId, (s) => s === 'waiting' || isTerminal(s))).toBe('waiting');

    const before = fake.requests.slice(start);
    expect(before).toHaveLength(5);
    for (const request of before.slice(0, 4)) expect(offeredTools(request)).not.toContain('write_file');
    expect(offeredTools(before[0])).toContain('read_file');
    expect(errorCode(toolAnswer(before[1].body.messages, 'c_early')!.content)).toBe('tools.not_visible');
    expect(errorCode(toolAnswer(before[2].body.messages, 'c_bad')!.content)).toBeDefined();
    expect(errorCode(toolAnswer(before[3].body.messages, 'c_out')!.content)).toBeUndefined();
    expect(offeredTools(before[4])).toContain('write_file');
    expect((await state(user, threadId)).activated_skills).toEqual([gated]);

    const answered = await ctx.http
      .post(`/api/runs/${runId}/answers`)
      .set(auth(user))
      .send({ answers: { 'q-1': 'yes' } });
    expect(answered.status).toBe(200);
    expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');
    const after = fake.requests.slice(start + 5);
    expect(offeredTools(after[0])).toContain('write_file');
    expect(errorCode(toolAnswer(after[1].body.messages, 'c_write')!.content)).toBeUndefined();
    expect((await state(user, threadId)).activated_skills).toEqual([gated]);
  });

  it("opens a preloaded skill's dependencies from the first model call", async () => {
    const user = await ctx.newUser();
    const pre = await ctx.newSharedSkill(
      admin,
      { 'SKILL.md': skillMd('gate-preloaded', ['tool_dependencies: [write_file]']) },
      sharedWith(user, admin),
    );
    const agent = (
      await ctx.newAgent(user, {
        name: 'Preloaded gate agent',
        config: {
          tools: ['read_file'],
          skills: [pre],
          preload_skills: [pre],
        },
      })
    ).slug;
    const threadId = await newThread(ctx, user, agent);
    const start = fake.requests.length;
    fake.script({ text: 'ok' });
    const { run_id: runId } = await startRun(ctx, user, threadId, { input: 'go' });
    expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');
    expect(offeredTools(fake.requests[start])).toContain('write_file');
  });

  it('keeps the tools of an MCP dependency hidden until the skill is activated, then offers and runs them', async () => {
    const user = await ctx.newUser();
    const skill = await ctx.newSharedSkill(
      admin,
      { 'SKILL.md': skillMd('gate-mcp') },
      sharedWith(user, admin),
    );
    // The MCP server directory of skill validation is not connected in this tree: set the index directly.
    await ctx.dataSource
      .getRepository(SkillEntity)
      .update({ slug: skill }, { mcpDependencies: ['gate-server'] });
    const agent = (
      await ctx.newAgent(user, { name: 'MCP gate agent', config: { tools: ['read_file'], skills: [skill] } })
    ).slug;
    const threadId = await newThread(ctx, user, agent);
    const start = fake.requests.length;
    fake.script(
      { toolCalls: [{ id: 'm_early', name: 'gate_lookup', args: { term: 'a' } }] },
      { toolCalls: [{ id: 'm_read', name: 'read_file', args: { file_path: sharedSkillPath(skill) } }] },
      { toolCalls: [{ id: 'm_call', name: 'gate_lookup', args: { term: 'b' } }] },
      { text: 'done' },
    );
    const { run_id: runId } = await startRun(ctx, user, threadId, { input: 'look up' });
    expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');
    const requests = fake.requests.slice(start);
    expect(offeredTools(requests[0])).not.toContain('gate_lookup');
    expect(errorCode(toolAnswer(requests[1].body.messages, 'm_early')!.content)).toBe('tools.not_visible');
    expect(offeredTools(requests[1])).not.toContain('gate_lookup');
    expect(offeredTools(requests[2])).toContain('gate_lookup');
    expect(toolAnswer(requests[3].body.messages, 'm_call')!.content).toContain('b');
    expect(mcp.received.filter((m) => m.method === 'tools/call')).toHaveLength(1);
  });

  it('activates a personal skill by a read of its personal SKILL.md path', async () => {
    const user = await ctx.newUser();
    const mine = await ctx.newPersonalSkill(user, {
      'SKILL.md': skillMd('gate-personal', ['tool_dependencies: [edit_file]']),
    });
    const agent = (
      await ctx.newAgent(user, { name: 'Personal gate agent', config: { tools: ['read_file'], skills: [] } })
    ).slug;
    const threadId = await newThread(ctx, user, agent);
    const start = fake.requests.length;
    fake.script(
      { toolCalls: [{ id: 'p_read', name: 'read_file', args: { file_path: personalSkillPath(mine) } }] },
      { text: 'done' },
    );
    const { run_id: runId } = await startRun(ctx, user, threadId, { input: 'mine' });
    expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');
    const requests = fake.requests.slice(start);
    expect(offeredTools(requests[0])).not.toContain('edit_file');
    expect(errorCode(toolAnswer(requests[1].body.messages, 'p_read')!.content)).toBeUndefined();
    expect(offeredTools(requests[1])).toContain('edit_file');
    expect((await state(user, threadId)).activated_skills).toEqual([mine]);
  });
});
