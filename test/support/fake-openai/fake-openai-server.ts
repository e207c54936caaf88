import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { completionBody, streamedChunks } from './completion-chunks';
import type { FakeFailure, FakeReply, RecordedRequest } from './fake-openai-script';

/** Picks the reply to one request by its content (`FakeOpenAiServer.route`). */
export type FakeRouter = (
  body: RecordedRequest['body'],
) =>
  | FakeReply
  | { reply: FakeReply; delayMs?: number; after?: Promise<unknown> }
  | { fail: FakeFailure }
  | undefined;

/**
 * A local OpenAI-compatible endpoint (`POST /v1/chat/completions`, streamed or not) that replays a
 * script of replies, one per request, and records every request. `failNext` makes the next requests
 * fail with a status (or hang) before the script resumes.
 */
export class FakeOpenAiServer {
  readonly requests: RecordedRequest[] = [];
  private readonly replies: FakeReply[] = [];
  private readonly failures: FakeFailure[] = [];
  private router: FakeRouter | null = null;
  private readonly holds = new Map<number, { released: Promise<void>; arrived: () => void }>();
  private readonly sockets = new Set<Socket>();
  private readonly server: Server = createServer((req, res) => void this.handle(req, res));

  static async start(): Promise<FakeOpenAiServer> {
    const fake = new FakeOpenAiServer();
    fake.server.on('connection', (socket) => {
      fake.sockets.add(socket);
      socket.on('close', () => fake.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  /** The base URL to configure as `OPENAI_BASE_URL`. */
  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  /** Appends replies to the script. */
  script(...replies: FakeReply[]): this {
    this.replies.push(...replies);
    return this;
  }

  /**
   * Answers by content instead of by order (runs in parallel reach the model in any order): `router`
   * sees each request and returns its reply (optionally after `delayMs`, or once `after` settles), or undefined to fall back to
   * the script. `null` removes it.
   */
  route(router: FakeRouter | null): this {
    this.router = router;
    return this;
  }

  /** Drops the replies no request took; returns how many there were. */
  clearScript(): number {
    return this.replies.splice(0).length;
  }

  /** The next `count` requests get this failure instead of a reply (they are recorded, not scripted). */
  failNext(count: number, failure: FakeFailure): this {
    for (let i = 0; i < count; i++) this.failures.push(failure);
    return this;
  }

  /**
   * The next request waits until `release()` (then gets its scripted reply); `arrived` resolves when it
   * has come in. Lets a test act while a run is inside a model call.
   */
  holdNext(): { arrived: Promise<void>; release: () => void } {
    let next = this.requests.length + 1;
    while (this.holds.has(next)) next++;
    return this.holdRequest(next);
  }

  /** Like `holdNext`, for the request with this number (1-based, counting every request received). */
  holdRequest(number: number): { arrived: Promise<void>; release: () => void } {
    let release: () => void = () => undefined;
    let arrived: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const arrival = new Promise<void>((resolve) => (arrived = resolve));
    this.holds.set(number, { released, arrived });
    return { arrived: arrival, release };
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions')
      return this.json(res, 404, { error: 'not found' });
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RecordedRequest['body'];
    this.requests.push({ headers: req.headers, body });
    const number = this.requests.length;
    const hold = this.holds.get(number);
    if (hold !== undefined) {
      this.holds.delete(number);
      hold.arrived();
      await hold.released;
    }

    // A scripted failure comes first; the router is asked only when there is none.
    let failure = this.failures.shift();
    const routed = failure === undefined ? this.router?.(body) : undefined;
    if (routed !== undefined && 'fail' in routed) failure = routed.fail;
    if (failure?.kind === 'hang') return;
    if (failure?.kind === 'status') {
      if (failure.retryAfter !== undefined) res.setHeader('retry-after', failure.retryAfter);
      return this.json(res, failure.status, {
        error: failure.error ?? { message: `scripted ${failure.status}`, type: 'fake' },
      });
    }
    if (routed !== undefined && 'reply' in routed) {
      if (routed.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, routed.delayMs));
      await routed.after;
    }
    const reply =
      routed === undefined || 'fail' in routed
        ? this.replies.shift()
        : 'reply' in routed
          ? routed.reply
          : routed;
    if (reply === undefined) return this.json(res, 500, { error: { message: 'the fake script is empty' } });

    if (body.stream !== true) return this.json(res, 200, completionBody(reply, body.model, number));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const includeUsage = body.stream_options?.include_usage === true;
    for (const data of streamedChunks(reply, body.model, number, includeUsage))
      res.write(`data: ${JSON.stringify(data)}\n\n`);
    res.end('data: [DONE]\n\n');
  }

  private json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }
}
