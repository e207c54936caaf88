import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface ChatMessage {
  role: string;
  content?: unknown;
}

/** What the model answers to one request: tool calls, or a final text (after `delayMs`, if given). */
export type Reply = ({ toolCalls: { name: string; args: Record<string, unknown> }[] } | { text: string }) & {
  delayMs?: number;
};

/**
 * An OpenAI-compatible streaming endpoint for benches: each reply is computed from the request (so many
 * concurrent runs each get their own conversation), streamed as the real API streams it.
 */
export class FakeModelServer {
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;
  private counter = 0;
  /** Milliseconds spent answering (request arrival to the end of the reply), over every request. */
  busyMs = 0;
  /** Requests answered so far. */
  requests = 0;

  private constructor(private readonly respond: (messages: ChatMessage[]) => Reply) {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  static async start(respond: (messages: ChatMessage[]) => Reply): Promise<FakeModelServer> {
    const fake = new FakeModelServer(respond);
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const arrived = performance.now();
    res.once('finish', () => {
      this.busyMs += performance.now() - arrived;
      this.requests++;
    });
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      model: string;
      messages: ChatMessage[];
    };
    const reply = this.respond(body.messages);
    if (reply.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    const id = `chatcmpl-${++this.counter}`;
    const frame = (delta: Record<string, unknown>, finish: string | null) =>
      `data: ${JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created: 0,
        model: body.model,
        choices: [{ index: 0, delta, finish_reason: finish }],
      })}\n\n`;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(frame({ role: 'assistant', content: '' }, null));
    if ('text' in reply) {
      for (const piece of reply.text.match(/.{1,8}/g) ?? []) res.write(frame({ content: piece }, null));
      res.write(frame({}, 'stop'));
    } else {
      reply.toolCalls.forEach((call, index) =>
        res.write(
          frame(
            {
              tool_calls: [
                {
                  index,
                  id: `call_${this.counter}_${index}`,
                  type: 'function',
                  function: { name: call.name, arguments: JSON.stringify(call.args) },
                },
              ],
            },
            null,
          ),
        ),
      );
      res.write(frame({}, 'tool_calls'));
    }
    res.end('data: [DONE]\n\n');
  }
}

/** The bench script: three tool calls (one per model turn), then a short answer. */
export function threeToolCalls(toolName: string, args: Record<string, unknown>) {
  return (messages: ChatMessage[]): Reply => {
    const lastUser = messages.map((m) => m.role).lastIndexOf('user');
    const toolResults = messages.slice(lastUser).filter((m) => m.role === 'tool').length;
    return toolResults < 3
      ? { toolCalls: [{ name: toolName, args }] }
      : { text: 'All three tool calls are done.' };
  };
}

/** A user message containing this is answered with text at once (a run with no tool call). */
export const NO_TOOLS_INPUT = 'Answer without tools.';

/** `threeToolCalls`, except for a conversation whose latest user message is `NO_TOOLS_INPUT`. */
export function threeToolCallsOrText(toolName: string, args: Record<string, unknown>) {
  const tools = threeToolCalls(toolName, args);
  return (messages: ChatMessage[]): Reply => {
    const lastUser = messages.filter((m) => m.role === 'user').at(-1);
    return lastUser?.content === NO_TOOLS_INPUT ? { text: 'Answered without tools.' } : tools(messages);
  };
}

/**
 * The capacity bench's script: one tool call, then (once its result is in) a short answer; every call
 * waits `delayMs` before its first token (a model's time to first token), then streams.
 */
export function oneToolCall(toolName: string, args: Record<string, unknown>, delayMs: number) {
  return (messages: ChatMessage[]): Reply => {
    const lastUser = messages.map((m) => m.role).lastIndexOf('user');
    const answered = messages.slice(lastUser).some((m) => m.role === 'tool');
    return answered
      ? { text: 'The file is written; here is the answer.', delayMs }
      : { toolCalls: [{ name: toolName, args }], delayMs };
  };
}
