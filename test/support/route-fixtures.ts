import { randomUUID } from 'node:crypto';
import type { ApiOperation } from './openapi-routes';
import { auth, newThread, startRun } from './runs/run-helpers';
import { skillMd } from './skills';
import type { TestContext, TestUser } from './test-app';

/**
 * Real rows behind the path parameters of every route, so requests that enumerate the Swagger document
 * reach the code behind the ids instead of stopping at a 404. The superadmin owns everything (it passes
 * the admin routes too); `user` is a normal user who owns nothing. A path nobody listed here gets a random
 * uuid (a 404 is fine for it).
 */
export class RouteFixtures {
  private constructor(
    readonly superadmin: TestUser,
    readonly user: TestUser,
    private readonly pathIds: [prefix: string, id: string][],
    /** Values for body fields that must name a real row (a thread, an agent) to get past lookups. */
    readonly referenceFields: Record<string, string>,
  ) {}

  static async create(ctx: TestContext): Promise<RouteFixtures> {
    const superadmin = await ctx.newUser({ role: 'superadmin' });
    const user = await ctx.newUser();
    const victim = await ctx.newUser();
    const threadId = await newThread(ctx, superadmin);
    const runId = (await startRun(ctx, superadmin, threadId, { input: 'fixture run' })).run_id;
    const agentSlug = (await ctx.newAgent(superadmin, { name: 'Route fixture' })).slug;
    const apiKey = await ctx.http.post('/api/api-keys').set(auth(superadmin)).send({ name: 'fixture key' });
    if (apiKey.status !== 201) throw new Error(`fixtures not created: ${apiKey.status}`);
    const skillSlug = await ctx.newSharedSkill(superadmin, {
      'SKILL.md': skillMd('route-fixture'),
      'notes.md': 'fixture notes\n',
    });
    const kb = await ctx.http
      .post('/api/knowledge-bases')
      .set(auth(superadmin))
      .send({ name: 'Route fixture' });
    const kbId = (kb.body as { kb_id: string }).kb_id;
    const kbFile = await ctx.http
      .post(`/api/knowledge-bases/${kbId}/files`)
      .set(auth(superadmin))
      .attach('file', Buffer.from('# Fixture\n\nfixture text\n'), 'fixture.md');
    if (kb.status !== 201 || kbFile.status !== 201) {
      throw new Error(`knowledge fixtures not created: ${kb.status} ${kbFile.status}`);
    }
    const schedule = await ctx.http
      .post(`/api/agents/${agentSlug}/schedules`)
      .set(auth(superadmin))
      .send({ cron: '0 8 * * *', timezone: 'UTC', input: 'fixture schedule', enabled: false });
    if (schedule.status !== 201) throw new Error(`schedule fixture not created: ${schedule.status}`);
    return new RouteFixtures(
      superadmin,
      user,
      [
        ['/api/users/', victim.id],
        ['/api/api-keys/', (apiKey.body as { id: string }).id],
        ['/api/threads/', threadId],
        ['/api/runs/', runId],
        ['/api/agents/', agentSlug],
        ['/api/system/tools/', 'ls'],
        ['/api/skills/', skillSlug],
        ['/api/knowledge-bases/', kbId],
        ['/api/schedules/', (schedule.body as { id: string }).id],
        ['/api/knowledge-bases/{kb_id}/files/', (kbFile.body as { file_id: string }).file_id],
      ],
      {
        agent_slug: agentSlug,
        thread_id: threadId,
        run_id: runId,
        user_id: victim.id,
        department_id: await ctx.defaultDepartmentId(),
      },
    );
  }

  /** A row a test made itself, named for the paths under `prefix` (before those made here). */
  usePathId(prefix: string, id: string): void {
    this.pathIds.unshift([prefix, id]);
  }

  /** The operation's path with every `{param}` replaced by a real id (or a random uuid). */
  pathOf(op: ApiOperation): string {
    return op.path.replace(/\{[^}]+\}/g, (_param, offset: number) => {
      const before = op.path.slice(0, offset);
      return this.pathIds.find(([prefix]) => before === prefix)?.[1] ?? randomUUID();
    });
  }
}
