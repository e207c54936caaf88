import { request } from 'node:http';
import { performance } from 'node:perf_hooks';

export interface ReceivedEvent {
  seq: number;
  type: string;
  createdAt: number;
  /** Date.now() when the frame arrived. */
  receivedAt: number;
}

/** A frame as it arrives, for a caller that acts on events while the stream stays open. */
export interface LiveFrame {
  seq: number;
  type: string;
  payload: Record<string, unknown>;
  /** performance.now() when the frame arrived. */
  arrivedAt: number;
}

export interface SseRead {
  events: ReceivedEvent[];
  /** performance.now() when the first frame arrived. */
  firstFrameAt: number | null;
  ended: boolean;
}

/** More hooks of a stream held open (the capacity bench's SSE case). */
export interface SseHooks {
  /** The 200 response's headers arrived (performance.now()). */
  onOpen?: (arrivedAt: number) => void;
  /** A comment block (`: heartbeat`) arrived (performance.now()). */
  onComment?: (text: string, arrivedAt: number) => void;
  /** Closes the stream; the read resolves with `ended: false`. */
  signal?: AbortSignal;
}

/**
 * Reads a run's SSE stream to its end (`done`) and timestamps every frame; `onFrame` sees each frame
 * as it arrives.
 */
export function readRunEvents(
  url: string,
  token: string,
  timeoutMs = 120_000,
  onFrame?: (frame: LiveFrame) => void,
  hooks: SseHooks = {},
): Promise<SseRead> {
  return new Promise((resolve, reject) => {
    const events: ReceivedEvent[] = [];
    let firstFrameAt: number | null = null;
    let buffer = '';
    const req = request(url, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } });
    const stop = () => {
      clearTimeout(timer);
      req.destroy();
      resolve({ events, firstFrameAt, ended: false });
    };
    const timer = setTimeout(stop, timeoutMs);
    if (hooks.signal !== undefined) {
      if (hooks.signal.aborted) stop();
      else hooks.signal.addEventListener('abort', stop, { once: true });
    }
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        clearTimeout(timer);
        reject(new Error(`SSE ${url} answered ${res.statusCode}`));
        res.resume();
        return;
      }
      hooks.onOpen?.(performance.now());
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const receivedAt = Date.now();
        const arrivedAt = performance.now();
        buffer += chunk;
        let boundary: number;
        while ((boundary = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, boundary);
          buffer = buffer.slice(boundary + 2);
          if (block.startsWith(':')) {
            hooks.onComment?.(block.slice(1).trim(), arrivedAt);
            continue;
          }
          const data = block.split('\n').find((line) => line.startsWith('data: '));
          if (data === undefined) continue;
          firstFrameAt ??= arrivedAt;
          const event = JSON.parse(data.slice(6)) as {
            seq: number;
            type: string;
            payload: Record<string, unknown>;
            created_at: string;
          };
          onFrame?.({ seq: event.seq, type: event.type, payload: event.payload, arrivedAt });
          events.push({
            seq: event.seq,
            type: event.type,
            createdAt: Date.parse(event.created_at),
            receivedAt,
          });
        }
      });
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ events, firstFrameAt, ended: true });
      });
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      if (hooks.signal?.aborted === true) return;
      reject(error);
    });
    req.end();
  });
}
