import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  callJson,
  insertFile,
  knowledgeClient,
  knowledgeMcpEnvironment,
  listen,
  mint,
} from '../../support/knowledge/knowledge-mcp';
import { TestContext, type TestUser } from '../../support/test-app';

type Json = Record<string, unknown>;

/** A knowledge base's share config readable by `read_scope`. */
const readBy = (read_scope: Json = { level: 'global' }) => ({ version: 2, read_scope });

describe('the knowledge MCP tools', () => {
  let ctx: TestContext;
  let url: string;
  let admin: TestUser;
  let user: TestUser;
  let outsider: TestUser;
  let handbook: string; // global KB
  let privateKb: string; // readable by `user` only
  let otherKb: string; // readable by the outsider only
  let policyFile: string;
  let longFile: string;
  let client: Client;
  const clients: Client[] = [];

  const longMarkdown = Array.from(
    { length: 500 },
    (_, i) => `line ${i + 1}: ${i % 100 === 41 ? 'NEEDLE here' : 'filler text'}`,
  ).join('\n');

  beforeAll(async () => {
    const { port, url: endpoint, env } = await knowledgeMcpEnvironment();
    ctx = await TestContext.start(env);
    await listen(ctx, port);
    url = endpoint;
    admin = await ctx.newUser({ role: 'admin' });
    user = await ctx.newUser();
    outsider = await ctx.newUser();
    handbook = await ctx.newKb(admin, {
      name: 'Handbook',
      description: 'Company handbook',
      share_config: readBy(),
    });
    privateKb = await ctx.newKb(admin, {
      name: 'Private',
      description: 'Only for one user',
      share_config: readBy({ level: 'users', user_ids: [user.id] }),
    });
    otherKb = await ctx.newKb(admin, {
      name: 'Other',
      share_config: readBy({ level: 'users', user_ids: [outsider.id] }),
    });
    policyFile = await insertFile(ctx, handbook, {
      filename: 'leave-policy.md',
      markdown: [
        '# Leave policy',
        '',
        '公司的年假制度：员工每年享有十五天带薪年假。',
        '',
        'The deployment guide explains how to configure PostgreSQL replication.',
        '',
        'Lunch is served at noon in the cafeteria.',
      ].join('\n'),
    });
    longFile = await insertFile(ctx, handbook, {
      filename: 'long.txt',
      markdown: longMarkdown,
      chunks: ['long'],
    });
    await insertFile(ctx, privateKb, { filename: 'secret-plan.md', markdown: 'the plan' });
    await insertFile(ctx, otherKb, { filename: 'not-yours.md', markdown: 'hidden' });
    client = await clientFor(user, [handbook, privateKb, otherKb]);
  });
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await ctx?.close();
  });

  async function clientFor(who: TestUser, kbIds: string[]): Promise<Client> {
    const c = await knowledgeClient(url, mint(ctx, { userId: who.id, runId: null, threadId: null, kbIds }));
    clients.push(c);
    return c;
  }

  describe('list_kbs', () => {
    it("lists what the user may read now, narrowed to the run's knowledge bases", async () => {
      const all = await callJson<{ knowledge_bases: Json[] }>(client, 'list_kbs');
      expect(all.isError).toBe(false);
      expect(all.body.knowledge_bases.map((kb) => kb.kb_id).sort()).toEqual([handbook, privateKb].sort());
      expect(all.body.knowledge_bases.find((kb) => kb.kb_id === handbook)).toEqual({
        kb_id: handbook,
        name: 'Handbook',
        description: 'Company handbook',
      });
      const narrowed = await clientFor(user, [handbook]);
      const only = await callJson<{ knowledge_bases: Json[] }>(narrowed, 'list_kbs');
      expect(only.body.knowledge_bases.map((kb) => kb.kb_id)).toEqual([handbook]);
    });
  });

  describe('query_kb', () => {
    it('returns the right chunk first for Chinese and English, with ids and no paths', async () => {
      const zh = await callJson<{ kb_id: string; results: Json[] }>(client, 'query_kb', {
        kb_id: handbook,
        query: '年假有几天',
      });
      expect(zh.isError).toBe(false);
      expect(zh.body.kb_id).toBe(handbook);
      expect(zh.body.results[0]).toMatchObject({
        kb_id: handbook,
        file_id: policyFile,
        filename: 'leave-policy.md',
        chunk_index: 1,
        content: '公司的年假制度：员工每年享有十五天带薪年假。',
      });
      expect(Object.keys(zh.body.results[0]).sort()).toEqual(
        ['chunk_index', 'content', 'file_id', 'filename', 'kb_id', 'score'].sort(),
      );
      const en = await callJson<{ results: Json[] }>(client, 'query_kb', {
        kb_id: handbook,
        query: 'postgresql replication',
        top_k: 1,
      });
      expect(en.body.results).toHaveLength(1);
      expect(en.body.results[0].chunk_index).toBe(2);
    });

    it('filters by file_name and refuses top_k outside 1..50', async () => {
      const none = await callJson<{ results: Json[] }>(client, 'query_kb', {
        kb_id: handbook,
        query: 'replication',
        file_name: 'long.txt',
      });
      expect(none.body.results).toEqual([]);
      for (const top_k of [0, 51, 2.5]) {
        const bad = await client.callTool({
          name: 'query_kb',
          arguments: { kb_id: handbook, query: 'x', top_k },
        });
        expect(bad.isError).toBe(true);
      }
    });

    it('answers a knowledge base outside the scope exactly like one that does not exist', async () => {
      const unreadable = await callJson<{ error: Json }>(client, 'query_kb', {
        kb_id: otherKb,
        query: 'hidden',
      });
      const missing = await callJson<{ error: Json }>(client, 'query_kb', {
        kb_id: '00000000-0000-4000-8000-000000000000',
        query: 'hidden',
      });
      const narrowed = await clientFor(user, [handbook]);
      const notInRun = await callJson<{ error: Json }>(narrowed, 'query_kb', {
        kb_id: privateKb,
        query: 'plan',
      });
      for (const answer of [unreadable, missing, notInRun]) {
        expect(answer.isError).toBe(true);
        expect(answer.body.error.code).toBe('knowledge.not_found');
      }
      const strip = (e: Json) => ({ ...e, message: undefined, details: undefined });
      expect(strip(unreadable.body.error)).toEqual(strip(missing.body.error));
    });
  });

  describe('find_kb_document', () => {
    it('finds keywords case-insensitively and returns numbered windows around the matches', async () => {
      const found = await callJson<Json & { windows: Json[] }>(client, 'find_kb_document', {
        kb_id: handbook,
        file_id: longFile,
        patterns: ['needle'],
        window_size: 3,
      });
      expect(found.isError).toBe(false);
      expect(found.body).toMatchObject({ total_lines: 500, total_matches: 5, has_more: false });
      expect(found.body.windows[0]).toEqual({
        start_line: 41,
        end_line: 43,
        match_lines: [42],
        content: ['line 41: filler text', 'line 42: NEEDLE here', 'line 43: filler text']
          .map((text, i) => `${41 + i}\t${text}`)
          .join('\n'),
      });
      const sensitive = await callJson<Json>(client, 'find_kb_document', {
        kb_id: handbook,
        file_id: longFile,
        patterns: ['needle'],
        case_sensitive: true,
      });
      expect(sensitive.body.total_matches).toBe(0);
    });

    it('caps the windows at max_windows and says there is more; refuses limits outside the protocol', async () => {
      const capped = await callJson<Json & { windows: Json[] }>(client, 'find_kb_document', {
        kb_id: handbook,
        file_id: longFile,
        patterns: ['NEEDLE'],
        max_windows: 2,
        window_size: 1,
      });
      expect(capped.body.windows.map((w) => w.start_line)).toEqual([42, 142]);
      expect(capped.body.has_more).toBe(true);
      for (const extra of [{ max_windows: 21 }, { window_size: 201 }, { window_size: 0 }, { patterns: [] }]) {
        const bad = await client.callTool({
          name: 'find_kb_document',
          arguments: { kb_id: handbook, file_id: longFile, patterns: ['x'], ...extra },
        });
        expect(bad.isError).toBe(true);
      }
    });

    it('searches with regular expressions, and reports an invalid one as a tool error', async () => {
      const found = await callJson<Json>(client, 'find_kb_document', {
        kb_id: handbook,
        file_id: longFile,
        patterns: ['^line (42|142):'],
        use_regex: true,
        window_size: 1,
      });
      expect(found.body.total_matches).toBe(2);
      const invalid = await callJson<{ error: Json }>(client, 'find_kb_document', {
        kb_id: handbook,
        file_id: longFile,
        patterns: ['(unclosed'],
        use_regex: true,
      });
      expect(invalid.isError).toBe(true);
      expect(invalid.body.error.code).toBe('knowledge.invalid_pattern');
    });

    it('stops a catastrophic regular expression within its budget while the server keeps answering', async () => {
      const hostile = `${'a'.repeat(40)}!`;
      const kb = await ctx.newKb(admin, { name: 'ReDoS', share_config: readBy() });
      const file = await insertFile(ctx, kb, { filename: 'redos.txt', markdown: hostile, chunks: ['x'] });
      const c = await clientFor(user, [kb]);
      const started = Date.now();
      const slow = callJson<{ error: Json }>(c, 'find_kb_document', {
        kb_id: kb,
        file_id: file,
        patterns: ['^(a+)+$'],
        use_regex: true,
      });
      const meanwhile = await callJson<{ knowledge_bases: Json[] }>(c, 'list_kbs');
      const answeredMeanwhileAfter = Date.now() - started;
      const result = await slow;
      expect(meanwhile.body.knowledge_bases).toHaveLength(1);
      expect(answeredMeanwhileAfter).toBeLessThan(1500);
      expect(result.isError).toBe(true);
      expect(result.body.error.code).toBe('knowledge.search_timeout');
      expect(Date.now() - started).toBeLessThan(10_000);
    });

    it("refuses another base's file and a file of a base outside the scope alike", async () => {
      const [wrongBase, outside] = await Promise.all([
        callJson<{ error: Json }>(client, 'find_kb_document', {
          kb_id: privateKb,
          file_id: longFile,
          patterns: ['x'],
        }),
        callJson<{ error: Json }>(client, 'find_kb_document', {
          kb_id: otherKb,
          file_id: longFile,
          patterns: ['x'],
        }),
      ]);
      expect(wrongBase.body.error.code).toBe('knowledge.file_not_found');
      expect(outside.body.error.code).toBe('knowledge.not_found');
    });
  });

  describe('open_kb_document', () => {
    it('reads numbered lines a window at a time, by line or by next_offset', async () => {
      const first = await callJson<Json & { content: string }>(client, 'open_kb_document', {
        kb_id: handbook,
        file_id: longFile,
        window_size: 100,
      });
      expect(first.isError).toBe(false);
      expect(first.body).toMatchObject({
        start_line: 1,
        total_lines: 500,
        has_more_before: false,
        has_more_after: true,
      });
      expect(first.body.content.length).toBeLessThanOrEqual(100);
      expect(first.body.content.split('\n')[0]).toBe('1\tline 1: filler text');
      const shown = first.body.content.split('\n').length;
      expect(first.body.end_line).toBe(shown);
      expect(first.body.next_offset).toBe(shown);
      const next = await callJson<Json & { content: string }>(client, 'open_kb_document', {
        kb_id: handbook,
        file_id: longFile,
        offset: first.body.next_offset,
        window_size: 100,
      });
      expect(next.body.start_line).toBe(shown + 1);
      expect(next.body.has_more_before).toBe(true);
      const last = await callJson<Json>(client, 'open_kb_document', {
        kb_id: handbook,
        file_id: longFile,
        line: 500,
      });
      expect(last.body).toMatchObject({
        start_line: 500,
        end_line: 500,
        has_more_after: false,
        next_offset: null,
      });
      const past = await callJson<Json>(client, 'open_kb_document', {
        kb_id: handbook,
        file_id: longFile,
        line: 9999,
      });
      expect(past.body).toMatchObject({ start_line: 501, end_line: 500, content: '', has_more_after: false });
    });

    it('defaults to 1800 characters, refuses window_size over 2000, and says when a file is not parsed yet', async () => {
      const whole = await callJson<Json & { content: string }>(client, 'open_kb_document', {
        kb_id: handbook,
        file_id: longFile,
      });
      expect(whole.body.content.length).toBeLessThanOrEqual(1800);
      expect(whole.body.content.length).toBeGreaterThan(1700);
      const bad = await client.callTool({
        name: 'open_kb_document',
        arguments: { kb_id: handbook, file_id: longFile, window_size: 2001 },
      });
      expect(bad.isError).toBe(true);
      const pending = await insertFile(ctx, handbook, { filename: 'pending.pdf' });
      const notReady = await callJson<{ error: Json }>(client, 'open_kb_document', {
        kb_id: handbook,
        file_id: pending,
      });
      expect(notReady.body.error.code).toBe('knowledge.file_not_ready');
    });
  });

  describe('search_file', () => {
    it('finds files by name case-insensitively across the visible bases, never beyond them', async () => {
      const all = await callJson<{ files: Json[]; total: number; has_more: boolean }>(
        client,
        'search_file',
        {},
      );
      const names = all.body.files.map((f) => f.filename);
      expect(names).toEqual(expect.arrayContaining(['leave-policy.md', 'long.txt', 'secret-plan.md']));
      expect(names).not.toContain('not-yours.md');
      expect(all.body.total).toBe(names.length);
      const one = await callJson<{ files: Json[] }>(client, 'search_file', { query: 'LEAVE' });
      expect(one.body.files).toEqual([
        expect.objectContaining({
          kb_id: handbook,
          file_id: policyFile,
          filename: 'leave-policy.md',
          status: 'indexed',
        }),
      ]);
      const outside = await callJson<{ error: Json }>(client, 'search_file', { kb_id: otherKb });
      expect(outside.body.error.code).toBe('knowledge.not_found');
    });

    it('takes % and _ literally', async () => {
      const kb = await ctx.newKb(admin, { name: 'Wildcards', share_config: readBy() });
      for (const name of ['100%_done.md', '100x-done.md', 'a_b.md', 'axb.md'])
        await insertFile(ctx, kb, { filename: name, markdown: name, chunks: [name] });
      const c = await clientFor(user, [kb]);
      const percent = await callJson<{ files: Json[] }>(c, 'search_file', { query: '100%_' });
      expect(percent.body.files.map((f) => f.filename)).toEqual(['100%_done.md']);
      const underscore = await callJson<{ files: Json[] }>(c, 'search_file', { query: 'a_b' });
      expect(underscore.body.files.map((f) => f.filename)).toEqual(['a_b.md']);
    });

    it('pages in a stable order with total, has_more and next_offset; refuses limit over 5000', async () => {
      const kb = await ctx.newKb(admin, { name: 'Many', share_config: readBy() });
      for (let i = 0; i < 7; i++)
        await insertFile(ctx, kb, { filename: `doc-${i}.md`, markdown: `${i}`, chunks: [`${i}`] });
      const c = await clientFor(user, [kb]);
      const seen: string[] = [];
      let offset: number | null = 0;
      while (offset !== null) {
        const page: {
          body: { files: Json[]; total: number; has_more: boolean; next_offset: number | null };
        } = await callJson(c, 'search_file', { offset, limit: 3 });
        expect(page.body.total).toBe(7);
        seen.push(...page.body.files.map((f) => f.filename as string));
        expect(page.body.has_more).toBe(page.body.next_offset !== null);
        offset = page.body.next_offset;
      }
      expect(seen).toEqual(Array.from({ length: 7 }, (_, i) => `doc-${i}.md`));
      const bad = await c.callTool({ name: 'search_file', arguments: { limit: 5001 } });
      expect(bad.isError).toBe(true);
    });
  });

  describe('access re-checked at every call', () => {
    it('refuses the next call once the read access is revoked, and gives a disabled user nothing', async () => {
      const kb = await ctx.newKb(admin, {
        name: 'Revocable',
        share_config: readBy({ level: 'users', user_ids: [user.id] }),
      });
      const file = await insertFile(ctx, kb, { filename: 'r.md', markdown: 'revocable text' });
      const c = await clientFor(user, [kb]);
      const before = await callJson(c, 'open_kb_document', { kb_id: kb, file_id: file });
      expect(before.isError).toBe(false);
      await ctx.dataSource.query(
        `UPDATE knowledge_bases SET share_config = jsonb_set(share_config, '{read_scope}', '{"level":"users","user_ids":[]}') WHERE id = $1`,
        [kb],
      );
      const after = await callJson<{ error: Json }>(c, 'open_kb_document', { kb_id: kb, file_id: file });
      expect(after.isError).toBe(true);
      expect(after.body.error.code).toBe('knowledge.not_found');
      const listed = await callJson<{ knowledge_bases: Json[] }>(c, 'list_kbs');
      expect(listed.body.knowledge_bases).toEqual([]);

      const gone = await ctx.newUser();
      const g = await clientFor(gone, [handbook]);
      expect((await callJson<{ knowledge_bases: Json[] }>(g, 'list_kbs')).body.knowledge_bases).toHaveLength(
        1,
      );
      await ctx.dataSource.query(`UPDATE users SET disabled = true WHERE id = $1`, [gone.id]);
      expect((await callJson<{ knowledge_bases: Json[] }>(g, 'list_kbs')).body.knowledge_bases).toEqual([]);
      const q = await callJson<{ error: Json }>(g, 'query_kb', { kb_id: handbook, query: 'leave' });
      expect(q.body.error.code).toBe('knowledge.not_found');
    });
  });

  describe('Knowledge switched off', () => {
    it('answers discovery and calls "unavailable" until it is switched on again', async () => {
      await ctx.dataSource.query(
        `INSERT INTO knowledge_settings (id, enabled, updated_at) VALUES ('global', false, now())
         ON CONFLICT (id) DO UPDATE SET enabled = false`,
      );
      try {
        await expect(client.listTools()).rejects.toMatchObject({ code: -32003 });
        const call = await callJson<{ error: Json }>(client, 'list_kbs');
        expect(call.isError).toBe(true);
        expect(call.body.error.code).toBe('knowledge.unavailable');
      } finally {
        await ctx.dataSource.query(`UPDATE knowledge_settings SET enabled = true WHERE id = 'global'`);
      }
      expect((await client.listTools()).tools).toHaveLength(5);
    });
  });
});
