import { request, type IncomingMessage } from 'node:http';
import type { AddressInfo, Server } from 'node:net';

export interface SseFrame {
  id: number;
  event: string;
  data: { run_id: string; seq: number; type: string; payload: Record<string, unknown>; created_at: string };
}

/** The base URL of an app's HTTP server, listening on an ephemeral port (started on first use). */
export async function listeningUrl(server: Server): Promise<string> {
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export interface ReadSseOptions {
  until?: (frame: SseFrame) => boolean;
  timeoutMs?: number;
  /** Cuts the connection (as a client going away would) when aborted. */
  signal?: AbortSignal;
  /** The client reads nothing (the socket stays unread) until this settles. */
  paused?: Promise<unknown>;
}

/**
 * A real SSE client over HTTP, on a connection of its own: frames are parsed as they arrive;
 * `comments` counts heartbeats. Stops when the server ends the stream, when `until` returns true for a
 * frame or `signal` aborts (then the connection is cut, as a client going away would), or after
 * `timeoutMs`.
 */
export function readSse(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
  options: ReadSseOptions = {},
): Promise<{ status: number; frames: SseFrame[]; comments: number; ended: boolean; body?: string }> {
  return new Promise((resolve, reject) => {
    const frames: SseFrame[] = [];
    let comments = 0;
    let buffer = '';
    let settled = false;
    const req = request(`${baseUrl}${path}`, {
      headers: { accept: 'text/event-stream', ...headers },
      agent: false,
    });
    const finish = (ended: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve({ status: 200, frames, comments, ended });
    };
    const timer = setTimeout(() => finish(false), options.timeoutMs ?? 20_000);
    if (options.signal?.aborted) finish(false);
    options.signal?.addEventListener('abort', () => finish(false), { once: true });
    req.on('response', (res: IncomingMessage) => {
      if (res.statusCode !== 200) {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => {
          settled = true;
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, frames, comments, ended: true, body });
        });
        return;
      }
      res.setEncoding('utf8');
      if (options.paused !== undefined) {
        res.pause();
        void options.paused.finally(() => res.resume());
      }
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let boundary: number;
        while ((boundary = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, boundary);
          buffer = buffer.slice(boundary + 2);
          if (block.startsWith(':')) {
            comments++;
            continue;
          }
          const fields = Object.fromEntries(
            block
              .split('\n')
              .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
          ) as Record<string, string>;
          const frame: SseFrame = {
            id: Number(fields.id),
            event: fields.event,
            data: JSON.parse(fields.data),
          };
          frames.push(frame);
          if (options.until?.(frame)) return finish(false);
        }
      });
      res.on('end', () => finish(true));
      res.on('error', () => finish(false));
    });
    req.on('error', (error) => (settled ? undefined : reject(error)));
    req.end();
  });
}
