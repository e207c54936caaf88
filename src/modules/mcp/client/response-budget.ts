import type { DomainError } from '../../../common/errors/index.js';

/** The fetch an SDK transport takes. */
type TransportFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

const LF = 0x0a;
const CR = 0x0d;

/**
 * Bounds what one connection's server may send: every response body is counted as it streams, a plain
 * body whole, an event stream per event (the count restarts at each blank line, so a long-lived stream
 * of small events lives on). Past `maxBytes` the body errors, which cancels it (the socket closes),
 * and `onExceeded` runs once so the owner can close the client: requests waiting on an event stream
 * then fail at once instead of at their timeout. `exceeded` keeps the error to report.
 */
export class ResponseBudget {
  exceeded: DomainError | null = null;
  onExceeded: () => void = () => undefined;

  constructor(
    private readonly maxBytes: number,
    private readonly tooLarge: () => DomainError,
  ) {}

  wrap(fetch: TransportFetch): TransportFetch {
    return async (input, init) => {
      const response = await fetch(input, init);
      if (response.body === null) return response;
      const eventStream = (response.headers.get('content-type') ?? '')
        .toLowerCase()
        .includes('text/event-stream');
      const declared = Number(response.headers.get('content-length') ?? NaN);
      if (!eventStream && !response.headers.has('content-encoding') && declared > this.maxBytes) {
        await response.body.cancel().catch(() => undefined);
        throw this.fail();
      }
      const counted = response.body.pipeThrough(this.counter(eventStream));
      return new Response(counted, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    };
  }

  private fail(): DomainError {
    if (this.exceeded === null) {
      this.exceeded = this.tooLarge();
      this.onExceeded();
    }
    return this.exceeded;
  }

  private counter(eventStream: boolean): TransformStream<Uint8Array, Uint8Array> {
    let count = 0;
    let previous = -1;
    const max = this.maxBytes;
    return new TransformStream({
      transform: (chunk, controller) => {
        let over = false;
        if (eventStream) {
          for (const byte of chunk) {
            if (byte === CR) continue; // CRLF line ends count as LF
            if (byte === LF && previous === LF) count = 0;
            else if (++count > max) {
              over = true;
              break;
            }
            previous = byte;
          }
        } else {
          count += chunk.byteLength;
          over = count > max;
        }
        if (over) controller.error(this.fail());
        else controller.enqueue(chunk);
      },
    });
  }
}
