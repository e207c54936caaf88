import { readFile } from 'node:fs/promises';
import { ToolCallAuditWriter } from '../../../src/modules/tools/execution/audit/tool-call-audit-writer';
import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { startRuntime } from '../../support/runs/runtime-context';
import type { TestContext, TestUser } from '../../support/test-app';
import { listeningUrl, readSse } from '../../support/runs/sse-client';
import { auth, newThread, startRun } from '../../support/runs/run-helpers';
import { workdirFile } from '../../support/runs/workdir-files';

describe('a run end to end: HTTP → BullMQ → worker → graph → tools → SSE → rows', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let user: TestUser;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime());
    user = await ctx.newUser();
  });

  afterAll(() => close());

  it('executes two tool calls from the model and streams every event in order', async () => {
    const threadId = await newThread(ctx, user);
    fake.script(
      {
        text: 'Writing it down.',
        toolCalls: [
          { id: 'call_w', name: 'write_file', args: { file_path: 'notes.md', content: 'hello run' } },
        ],
      },
      { toolCalls: [{ id: 'call_r', name: 'read_file', args: { file_path: 'notes.md' } }] },
      { text: 'The file says hello run.' },
    );
    const accepted = await startRun(ctx, user, threadId, { input: 'Write and read a note' });
    expect(accepted).toMatchObject({
      status: 'queued',
      queue_position: 0,
      stream_url: `/api/runs/${accepted.run_id}/events`,
    });

    const base = await listeningUrl(ctx.app.getHttpServer());
    const stream = await readSse(base, accepted.stream_url, auth(user));
    expect(stream.ended).toBe(true);
    const seqs = stream.frames.map((f) => f.id);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    const types = stream.frames.map((f) => f.event).filter((t) => t !== 'message_delta');
    expect(types).toEqual([
      'status', // queued
      'status', // running
      'unavailable', // web_search: the default agent selects it, no vendor key is set
      'unavailable', // web_fetch: likewise
      'message',
      'tool_call',
      'usage',
      'tool_result',
      'message',
      'tool_call',
      'usage',
      'tool_result',
      'message',
      'usage',
      'status', // completed
      'done',
    ]);
    expect(stream.frames.filter((f) => f.event === 'unavailable').map((f) => f.data.payload)).toEqual([
      expect.objectContaining({ component: 'web_search', available: false }),
      expect.objectContaining({ component: 'web_fetch', available: false }),
    ]);
    const results = stream.frames.filter((f) => f.event === 'tool_result').map((f) => f.data.payload);
    expect(results[0]).toMatchObject({ tool_call_id: 'call_w', name: 'write_file', is_error: false });
    expect(results[1]).toMatchObject({ tool_call_id: 'call_r', name: 'read_file', is_error: false });
    expect(String(results[1].content)).toContain('hello run');
    const deltas = stream.frames
      .filter((f) => f.event === 'message_delta')
      .map((f) => f.data.payload.delta)
      .join('');
    expect(deltas).toBe('Writing it down.The file says hello run.');
    expect(stream.frames.at(-1)?.data.payload).toEqual({ status: 'completed' });

    // The file exists in the thread's workdir on disk.
    const onDisk = workdirFile(ctx, user.id, threadId, 'notes.md');
    expect(await readFile(onDisk, 'utf8')).toBe('hello run');

    // The model saw the tool results bound to their calls.
    const third = fake.requests.at(-1)!.body.messages;
    expect(third.filter((m) => m.role === 'tool').map((m) => m.tool_call_id)).toEqual(['call_w', 'call_r']);

    // Rows read back.
    const run = await ctx.http.get(`/api/runs/${accepted.run_id}`).set(auth(user));
    expect(run.body).toMatchObject({
      id: accepted.run_id,
      thread_id: threadId,
      status: 'completed',
      agent_slug: 'default-chatbot',
    });
    expect(run.body.finished_at).not.toBeNull();
    // Each of the three model calls reported 11 + 7 tokens (the fake's usage); each is added once.
    expect(run.body.token_usage).toEqual({
      input_tokens: 33,
      output_tokens: 21,
      total_tokens: 54,
      cached_tokens: 0,
    });
    const messages = await ctx.http.get(`/api/threads/${threadId}/messages`).set(auth(user));
    expect(messages.status).toBe(200);
    const items = messages.body.items as {
      role: string;
      content: string;
      tool_calls?: unknown[];
      tool_call_id?: string;
    }[];
    expect(items.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
    expect(items[0].content).toBe('Write and read a note');
    expect(items[1].tool_calls).toEqual([
      { id: 'call_w', name: 'write_file', args: { file_path: 'notes.md', content: 'hello run' } },
    ]);
    expect(items[2].tool_call_id).toBe('call_w');
    expect(items[5].content).toBe('The file says hello run.');
    await ctx.app.get(ToolCallAuditWriter).flush(); // audit rows are written in batches
    const audit = await ctx.dataSource.query<{ tool_name: string; outcome: string }[]>(
      `SELECT tool_name, outcome FROM tool_calls WHERE run_id = $1 ORDER BY created_at`,
      [accepted.run_id],
    );
    expect(audit.map((a) => a.tool_name).sort()).toEqual(['read_file', 'write_file']);
  });
});
