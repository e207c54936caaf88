import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { startRuntime } from '../../support/runs/runtime-context';
import { splitIntoPieces } from '../../support/fake-openai/fake-openai-script';
import { storedEvents } from '../../support/runs/run-event-rows';
import { auth, newThread, startRun } from '../../support/runs/run-helpers';
import { listeningUrl, readSse } from '../../support/runs/sse-client';
import type { TestContext, TestUser } from '../../support/test-app';

/** 2,000 characters that are not a repetition of one short block, so a misordered join shows. */
const LONG_TEXT = Array.from({ length: 2_000 }, (_, i) =>
  String.fromCharCode(97 + ((i * 7 + (i >> 5)) % 26)),
).join('');

describe('token deltas are batched into few events (RUN_EVENT_FLUSH_MS)', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let user: TestUser;
  let base: string;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime({ RUN_EVENT_FLUSH_MS: '200' }));
    user = await ctx.newUser();
    base = await listeningUrl(ctx.app.getHttpServer());
  });

  afterAll(() => close());

  it('stores far fewer message_delta rows than streamed pieces, whose concatenation is the message', async () => {
    const pieces = splitIntoPieces(LONG_TEXT, 4).length;
    expect(pieces).toBe(500);
    const threadId = await newThread(ctx, user);
    fake.script({ text: LONG_TEXT });
    const run = await startRun(ctx, user, threadId, { input: 'say a lot' });
    const stream = await readSse(base, run.stream_url, auth(user));
    expect(stream.ended).toBe(true);
    expect(stream.frames.at(-1)?.data.payload).toEqual({ status: 'completed' });

    const stored = await storedEvents(ctx, run.run_id);
    const deltas = stored.filter((e) => e.type === 'message_delta');
    expect(deltas.length).toBeGreaterThanOrEqual(1);
    expect(deltas.length).toBeLessThan(pieces / 10);
    expect(deltas.map((e) => e.payload.delta).join('')).toBe(LONG_TEXT);

    const message = stored.find((e) => e.type === 'message')!;
    expect(message.payload).toMatchObject({ role: 'assistant', content: LONG_TEXT });
    expect(new Set(deltas.map((e) => e.payload.message_id))).toEqual(new Set([message.payload.message_id]));
    // Every delta precedes the message it builds.
    expect(Math.max(...deltas.map((e) => e.seq))).toBeLessThan(message.seq);

    // The SSE client got the same deltas, and the stored assistant message is the same text.
    const streamed = stream.frames
      .filter((f) => f.event === 'message_delta')
      .map((f) => f.data.payload.delta);
    expect(streamed.join('')).toBe(LONG_TEXT);
    const messages = await ctx.http.get(`/api/threads/${threadId}/messages`).set(auth(user));
    expect(messages.body.items.at(-1)).toMatchObject({ role: 'assistant', content: LONG_TEXT });
  });

  it('keeps the deltas of each model call under that call’s message id', async () => {
    const threadId = await newThread(ctx, user);
    fake.script(
      { text: 'First part. ', toolCalls: [{ id: 'call_ls', name: 'ls', args: {} }] },
      { text: 'Second part.' },
    );
    const run = await startRun(ctx, user, threadId, { input: 'two turns' });
    const stream = await readSse(base, run.stream_url, auth(user));
    expect(stream.ended).toBe(true);

    const stored = await storedEvents(ctx, run.run_id);
    const messages = stored.filter((e) => e.type === 'message');
    expect(messages.map((m) => m.payload.content)).toEqual(['First part. ', 'Second part.']);
    for (const message of messages) {
      const own = stored.filter(
        (e) => e.type === 'message_delta' && e.payload.message_id === message.payload.message_id,
      );
      expect(own.map((e) => e.payload.delta).join('')).toBe(message.payload.content);
    }
    expect(messages[0].payload.message_id).not.toBe(messages[1].payload.message_id);
  });
});
