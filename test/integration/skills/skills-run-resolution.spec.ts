import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { McpServersRepository } from '../../../src/modules/mcp/servers/mcp-servers.repository';
import { SkillEntity } from '../../../src/modules/skills/storage/skill.entity';
import { SkillsRepository } from '../../../src/modules/skills/storage/skills.repository';
import { WebSearchSettingsStore } from '../../../src/modules/web-search/config/web-search-settings.store';
import { WorkspacePathResolver } from '../../../src/modules/workspace/index';
import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { runRow } from '../../support/runs/run-event-rows';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { startRuntime } from '../../support/runs/runtime-context';
import { skillMd } from '../../support/skills';
import { personalSkillPath, sharedSkillPath, systemPrompt } from '../../support/skills-runtime';
import type { TestContext, TestUser } from '../../support/test-app';

describe('skills: per-run resolution (system prompt, snapshot, preload)', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let admin: TestUser;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime());
    admin = await ctx.newUser({ role: 'admin' });
  });
  afterAll(() => close());

  const sharedWith = (...users: TestUser[]) => ({
    version: 2 as const,
    read_scope: { level: 'users' as const, user_ids: users.map((u) => u.id) },
  });

  async function runOnce(user: TestUser, agentSlug: string) {
    const threadId = await newThread(ctx, user, agentSlug);
    const before = fake.requests.length;
    fake.script({ text: 'done' });
    const run = await startRun(ctx, user, threadId, { input: 'hello' });
    const status = await waitForStatus(ctx, run.run_id, isTerminal);
    return { runId: run.run_id, status, requests: fake.requests.slice(before) };
  }

  it('lists the readable selection, the personal skills (overriding) and the dependency closure, frozen with revisions', async () => {
    const user = await ctx.newUser();
    const leaf = await ctx.newSharedSkill(
      admin,
      { 'SKILL.md': skillMd('res-leaf') },
      sharedWith(user, admin),
    );
    const mid = await ctx.newSharedSkill(
      admin,
      { 'SKILL.md': skillMd('res-mid', [`skill_dependencies: [${leaf}]`]) },
      sharedWith(user, admin),
    );
    const top = await ctx.newSharedSkill(
      admin,
      { 'SKILL.md': skillMd('res-top', [`skill_dependencies: [${mid}]`]) },
      sharedWith(user, admin),
    );
    const both = await ctx.newSharedSkill(
      admin,
      { 'SKILL.md': skillMd('res-both') },
      sharedWith(user, admin),
    );
    await ctx.newPersonalSkill(user, {
      'SKILL.md': ['---', `name: ${both}`, 'description: My own version.', '---', '# mine\n'].join('\n'),
    });
    const mine = await ctx.newPersonalSkill(user, { 'SKILL.md': skillMd('res-mine') });
    const agent = (await ctx.newAgent(user, { name: 'Resolution agent', config: { skills: [top, both] } }))
      .slug;

    const { runId, status, requests } = await runOnce(user, agent);
    expect(status).toBe('completed');
    const prompt = systemPrompt(requests[0]);
    expect(prompt).toContain(`The ${top} skill. — ${sharedSkillPath(top)}`);
    expect(prompt).toContain(`My own version. — ${personalSkillPath(both)}`);
    expect(prompt).not.toContain(sharedSkillPath(both));
    expect(prompt).toContain(personalSkillPath(mine));
    const [{ config_snapshot: snapshot }] = await ctx.dataSource.query<
      { config_snapshot: { effective_skills: { slug: string; source: string; revision: string }[] } }[]
    >(`SELECT config_snapshot FROM runs WHERE id = $1`, [runId]);
    expect(snapshot.effective_skills.map((s) => [s.slug, s.source])).toEqual([
      [top, 'shared'],
      [both, 'personal'],
      [mine, 'personal'],
      [mid, 'shared'],
      [leaf, 'shared'],
    ]);
    expect(snapshot.effective_skills[0].revision).toBe('1');

    // A skill the user cannot read (or a disabled one) is not part of the run, even if a dependency.
    await ctx.dataSource.getRepository(SkillEntity).update({ slug: leaf }, { enabled: false });
    const again = await runOnce(user, agent);
    expect(systemPrompt(again.requests[0])).not.toContain(sharedSkillPath(leaf));
    expect(systemPrompt(again.requests[0])).toContain(sharedSkillPath(mid));
  });

  it('drops a selected skill the running user may not read', async () => {
    const owner = await ctx.newUser();
    const other = await ctx.newUser();
    const open = await ctx.newSharedSkill(
      admin,
      { 'SKILL.md': skillMd('res-open') },
      sharedWith(owner, other, admin),
    );
    const closed = await ctx.newSharedSkill(
      admin,
      { 'SKILL.md': skillMd('res-closed') },
      sharedWith(owner, admin),
    );
    const agent = (
      await ctx.newAgent(owner, { name: 'Shared resolution agent', config: { skills: [open, closed] } })
    ).slug;
    const shared = await ctx.http
      .patch(`/api/agents/${agent}`)
      .set(auth(owner))
      .send({ share_config: { version: 2, read_scope: { level: 'users', user_ids: [owner.id, other.id] } } });
    expect(shared.status).toBe(200);

    const asOwner = await runOnce(owner, agent);
    expect(systemPrompt(asOwner.requests[0])).toContain(sharedSkillPath(closed));
    const asOther = await runOnce(other, agent);
    expect(asOther.status).toBe('completed');
    expect(systemPrompt(asOther.requests[0])).toContain(sharedSkillPath(open));
    expect(systemPrompt(asOther.requests[0])).not.toContain(closed);
  });

  it('injects a preloaded SKILL.md in full; a missing root fails the run with skills.preload_root_missing', async () => {
    const user = await ctx.newUser();
    const body = '# Preloaded\n\nUnique preload marker 7f3a.\n';
    const pre = await ctx.newSharedSkill(
      admin,
      { 'SKILL.md': skillMd('res-pre', [], body) },
      sharedWith(user, admin),
    );
    const agent = (
      await ctx.newAgent(user, { name: 'Preload agent', config: { skills: [pre], preload_skills: [pre] } })
    ).slug;
    const ok = await runOnce(user, agent);
    expect(ok.status).toBe('completed');
    expect(systemPrompt(ok.requests[0])).toContain('Unique preload marker 7f3a.');

    const shared = ctx.app.get(WorkspacePathResolver).sharedSkillsRoot();
    await rm(join(shared, pre, 'SKILL.md'));
    const threadId = await newThread(ctx, user, agent);
    const before = fake.requests.length;
    const run = await startRun(ctx, user, threadId, { input: 'hello' });
    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('failed');
    expect((await runRow(ctx, run.run_id)).error).toMatchObject({
      code: 'skills.preload_root_missing',
      details: { slug: pre },
    });
    expect(fake.requests.length).toBe(before);
  });

  it('keeps a prepared run on its snapshot; a change to a shared skill applies to runs prepared afterwards', async () => {
    const user = await ctx.newUser();
    const skill = await ctx.newSharedSkill(
      admin,
      { 'SKILL.md': skillMd('res-frozen') },
      sharedWith(user, admin),
    );
    const agent = (await ctx.newAgent(user, { name: 'Frozen agent', config: { skills: [skill] } })).slug;
    const threadId = await newThread(ctx, user, agent);
    const start = fake.requests.length;
    fake.script(
      { toolCalls: [{ id: 'f_ask', name: 'ask_user_question', args: { questions: [{ question: 'Go?' }] } }] },
      { text: 'resumed' },
    );
    const run = await startRun(ctx, user, threadId, { input: 'hello' });
    expect(await waitForStatus(ctx, run.run_id, (s) => s === 'waiting' || isTerminal(s))).toBe('waiting');
    await ctx.dataSource
      .getRepository(SkillEntity)
      .update({ slug: skill }, { description: 'Rewritten description.', revision: 2 });
    const answered = await ctx.http
      .post(`/api/runs/${run.run_id}/answers`)
      .set(auth(user))
      .send({ answers: { 'q-1': 'yes' } });
    expect(answered.status).toBe(200);
    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('completed');
    const resumed = fake.requests.slice(start);
    expect(resumed).toHaveLength(2);
    expect(systemPrompt(resumed[1])).toContain(`The ${skill} skill.`);
    expect(systemPrompt(resumed[1])).not.toContain('Rewritten description.');

    const later = await runOnce(user, agent);
    expect(systemPrompt(later.requests[0])).toContain('Rewritten description.');
  });

  it('preloads every selected skill with preload_skills "all"', async () => {
    const user = await ctx.newUser();
    const one = await ctx.newSharedSkill(
      admin,
      { 'SKILL.md': skillMd('res-all-one', [], '# One\n\nmarker-one-91\n') },
      sharedWith(user, admin),
    );
    const two = await ctx.newSharedSkill(
      admin,
      { 'SKILL.md': skillMd('res-all-two', [], '# Two\n\nmarker-two-92\n') },
      sharedWith(user, admin),
    );
    const agent = (
      await ctx.newAgent(user, {
        name: 'Preload all agent',
        config: {
          skills: [one, two],
          preload_skills: 'all',
        },
      })
    ).slug;
    const { status, requests } = await runOnce(user, agent);
    expect(status).toBe('completed');
    expect(systemPrompt(requests[0])).toContain('marker-one-91');
    expect(systemPrompt(requests[0])).toContain('marker-two-92');
  });

  it('reads what several parts of a run assembly ask alike once per run, and anew for the next run', async () => {
    const user = await ctx.newUser();
    const skill = await ctx.newSharedSkill(
      admin,
      { 'SKILL.md': skillMd('res-once') },
      sharedWith(user, admin),
    );
    // Skills: the `skills` field's options and skill resolution; MCP servers: the `mcps` field's options
    // and the tool loader; web search settings: the availability of web_search and of web_fetch.
    const agent = (
      await ctx.newAgent(user, { name: 'Read-once agent', config: { skills: [skill], mcps: ['knowledge'] } })
    ).slug;
    // Private readers behind the shared reads: what actually goes to the database.
    type Methods = Record<string, (...args: unknown[]) => unknown>;
    const spy = (target: unknown, method: string) => jest.spyOn(target as Methods, method);
    const reads = {
      skills: spy(ctx.app.get(SkillsRepository), 'queryReadable'),
      settings: spy(ctx.app.get(WebSearchSettingsStore), 'readRow'),
      servers: spy(Reflect.get(ctx.app.get(McpServersRepository), 'rows'), 'find'),
    };
    const counts = () => ({
      skills: reads.skills.mock.calls.length,
      settings: reads.settings.mock.calls.length,
      enabledServers: reads.servers.mock.calls.filter(([options]) =>
        JSON.stringify(options).includes('"enabled":true'),
      ).length,
    });
    try {
      const first = await runOnce(user, agent);
      expect(first.status).toBe('completed');
      expect(systemPrompt(first.requests[0])).toContain(sharedSkillPath(skill));
      expect(counts()).toEqual({ skills: 1, settings: 1, enabledServers: 1 });
      await runOnce(user, agent);
      expect(counts()).toEqual({ skills: 2, settings: 2, enabledServers: 2 });
    } finally {
      for (const spy of Object.values(reads)) spy.mockRestore();
    }
  });
});
