/** One Server-Sent Events frame: its `id`, `event` and `data` fields (data lines joined by newlines). */
export interface SseFrame {
  id: string | null;
  event: string;
  data: string;
}

/**
 * An incremental parser of `text/event-stream` text: feed it chunks as they arrive (a chunk may end in
 * the middle of a line or of a frame) and it returns the frames completed so far. Comment lines
 * (`: heartbeat`) are dropped.
 */
export class SseParser {
  private buffer = '';
  private id: string | null = null;
  private event = '';
  private data: string[] = [];

  push(chunk: string): SseFrame[] {
    this.buffer += chunk;
    const frames: SseFrame[] = [];
    let newline: number;
    while ((newline = this.nextLineEnd()) >= 0) {
      let line = this.buffer.slice(0, newline);
      const skip = this.buffer[newline] === '\r' && this.buffer[newline + 1] === '\n' ? 2 : 1;
      this.buffer = this.buffer.slice(newline + skip);
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line === '') {
        if (this.data.length > 0 || this.event) {
          frames.push({ id: this.id, event: this.event || 'message', data: this.data.join('\n') });
        }
        this.id = null;
        this.event = '';
        this.data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') this.data.push(value);
      else if (field === 'event') this.event = value;
      else if (field === 'id') this.id = value;
    }
    return frames;
  }

  private nextLineEnd(): number {
    const lf = this.buffer.indexOf('\n');
    const cr = this.buffer.indexOf('\r');
    if (cr >= 0 && (lf < 0 || cr < lf)) {
      // A lone CR at the end of the chunk may be the first half of CRLF: wait for the next chunk.
      if (cr === this.buffer.length - 1) return -1;
      return cr;
    }
    return lf;
  }
}
