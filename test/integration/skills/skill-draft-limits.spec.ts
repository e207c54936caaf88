import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { strToU8, zipSync } from 'fflate';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { MAINTENANCE_QUEUE, MaintenanceJobs } from '../../../src/modules/maintenance/maintenance.queue';
import { SkillDraftsService } from '../../../src/modules/skills/drafts/skill-drafts.service';
import { uploadTempDir } from '../../../src/modules/workspace';
import { auth } from '../../support/runs/run-helpers';
import { skillMd } from '../../support/skills';
import { TestContext, type TestUser } from '../../support/test-app';

const KB = 1024;
const BYTES_CAP = 100 * KB;

/** A zip of one skill padded (stored, not deflated) to about `size` bytes. */
const paddedZip = (slug: string, size: number) =>
  Buffer.from(
    zipSync({ 's/SKILL.md': strToU8(skillMd(slug)), 's/pad.txt': strToU8('p'.repeat(size)) }, { level: 0 }),
  );

describe('skill drafts: per-user caps, the cleaning job, uploads streamed to disk', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await TestContext.start({
      APP_ROLE: 'all',
      SKILL_DRAFTS_PER_USER: '2',
      SKILL_DRAFT_BYTES_PER_USER: String(BYTES_CAP),
    });
  });
  afterAll(() => ctx?.close());
  afterEach(() => jest.restoreAllMocks());

  const draftsRoot = () => join(ctx.config.dataDir, 'skill-drafts');
  const draftDir = (id: string) => join(draftsRoot(), id);
  const rowsOf = async (user: TestUser) =>
    (
      await ctx.dataSource.query<{ id: string; bytes: string }[]>(
        `SELECT id, bytes FROM skill_drafts WHERE owner_id = $1 ORDER BY created_at`,
        [user.id],
      )
    ).map((row) => ({ id: row.id, bytes: Number(row.bytes) }));
  const tempFiles = () =>
    existsSync(uploadTempDir(ctx.config.dataDir)) ? readdirSync(uploadTempDir(ctx.config.dataDir)) : [];
  const upload = (user: TestUser, bytes: Buffer) =>
    ctx.http.post('/api/skills/drafts').set(auth(user)).attach('file', bytes, 'skills.zip');
  const outcome = (res: { status: number; body: unknown }) => ({
    status: res.status,
    code: (res.body as { code?: string }).code,
  });

  it('caps the drafts one user keeps by count (409 skills.draft_limit_reached); a discard frees a slot', async () => {
    const alice = await ctx.newUser();
    const bob = await ctx.newUser();
    const first = await upload(alice, paddedZip('count-one', 10));
    const second = await upload(alice, paddedZip('count-two', 10));
    expect([first.status, second.status]).toEqual([201, 201]);
    const ids = [first.body as { id: string }, second.body as { id: string }].map((d) => d.id);

    const folders = readdirSync(draftsRoot());
    const third = await upload(alice, paddedZip('count-three', 10));
    expect(outcome(third)).toEqual({ status: 409, code: 'skills.draft_limit_reached' });
    expect(third.body).toMatchObject({ details: { reason: 'count', limit: 2 } });
    expect((await rowsOf(alice)).map((row) => row.id)).toEqual(ids);
    expect(readdirSync(draftsRoot())).toEqual(folders);
    expect(tempFiles()).toEqual([]);

    // A remote source is refused the same way, before anything is fetched.
    const remote = await ctx.http
      .post('/api/skills/drafts/remote')
      .set(auth(alice))
      .send({ source: 'acme/tools', skill_names: ['remote-b'] });
    expect(outcome(remote)).toEqual({ status: 409, code: 'skills.draft_limit_reached' });

    // Another user's drafts are their own.
    expect((await upload(bob, paddedZip('count-bob', 10))).status).toBe(201);

    expect((await ctx.http.delete(`/api/skills/drafts/${ids[0]}`).set(auth(alice))).status).toBe(204);
    expect(existsSync(draftDir(ids[0]))).toBe(false);
    expect((await rowsOf(alice)).map((row) => row.id)).toEqual([ids[1]]);
    expect((await upload(alice, paddedZip('count-three', 10))).status).toBe(201);
  });

  it('caps the bytes one user keeps in drafts; a confirmed draft no longer counts', async () => {
    const carol = await ctx.newUser();
    const big = paddedZip('bytes-one', 60 * KB);
    const first = await upload(carol, big);
    expect(first.status).toBe(201);
    expect(await rowsOf(carol)).toEqual([{ id: (first.body as { id: string }).id, bytes: big.length }]);

    const refused = await upload(carol, paddedZip('bytes-two', 60 * KB));
    expect(outcome(refused)).toEqual({ status: 409, code: 'skills.draft_limit_reached' });
    expect(refused.body).toMatchObject({ details: { reason: 'bytes', limit: BYTES_CAP } });
    expect((await rowsOf(carol)).length).toBe(1);
    expect(tempFiles()).toEqual([]);

    const confirmed = await ctx.http
      .post(`/api/skills/drafts/${(first.body as { id: string }).id}/confirm`)
      .set(auth(carol))
      .send({ target: 'personal' });
    expect(confirmed.status).toBe(200);
    expect(await rowsOf(carol)).toEqual([]);
    expect(existsSync(draftDir((first.body as { id: string }).id))).toBe(false);
    expect((await upload(carol, paddedZip('bytes-two', 60 * KB))).status).toBe(201);
  });

  it('removes expired drafts with the maintenance job (files and row), not on requests', async () => {
    const dave = await ctx.newUser();
    const expired = (await upload(dave, paddedZip('expiring', 10))).body as { id: string };
    const live = (await upload(dave, paddedZip('staying', 10))).body as { id: string };
    await ctx.dataSource.query(
      `UPDATE skill_drafts SET expires_at = now() - interval '1 minute' WHERE id = $1`,
      [expired.id],
    );

    // Expired: not found, but a request does not do the cleaning.
    const late = await ctx.http
      .post(`/api/skills/drafts/${expired.id}/confirm`)
      .set(auth(dave))
      .send({ target: 'personal' });
    expect(outcome(late)).toEqual({ status: 404, code: 'skills.draft_not_found' });
    expect(existsSync(draftDir(expired.id))).toBe(true);

    const queue = ctx.app.get<Queue>(getQueueToken(MAINTENANCE_QUEUE));
    expect((await queue.getJobSchedulers()).map((s) => s.key)).toContain(
      MaintenanceJobs.purgeExpiredSkillDrafts,
    );
    const job = await queue.add(MaintenanceJobs.purgeExpiredSkillDrafts, {});
    let state = await job.getState();
    for (let i = 0; i < 200 && state !== 'completed' && state !== 'failed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      state = await job.getState();
    }
    expect(state).toBe('completed');
    expect((await queue.getJob(job.id!))?.returnvalue).toMatchObject({ expired: 1 });
    expect(existsSync(draftDir(expired.id))).toBe(false);
    expect(existsSync(draftDir(live.id))).toBe(true);
    expect((await rowsOf(dave)).map((row) => row.id)).toEqual([live.id]);
  });

  it('streams an upload to a temp file: the drafts service gets its path, and the file is gone after', async () => {
    const erin = await ctx.newUser();
    const create = jest.spyOn(ctx.app.get(SkillDraftsService), 'create');
    const res = await upload(erin, paddedZip('streamed', 10 * KB));
    expect(res.status).toBe(201);
    const source = create.mock.calls[0][1] as unknown;
    expect(Buffer.isBuffer(source)).toBe(false);
    expect(source).toEqual({
      path: expect.stringContaining(uploadTempDir(ctx.config.dataDir)),
      size: expect.any(Number),
    });
    expect(existsSync((source as { path: string }).path)).toBe(false);
    expect(tempFiles()).toEqual([]);
  });
});
