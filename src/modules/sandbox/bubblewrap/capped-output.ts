import type { Readable } from 'node:stream';

/**
 * Reads a stream to its end keeping at most `limit` bytes (the rest is read and dropped, so the
 * writer never blocks on a full pipe and memory stays bounded whatever it writes).
 */
export class CappedOutput {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  truncated = false;
  readonly done: Promise<void>;

  constructor(
    stream: Readable,
    private readonly limit: number,
  ) {
    this.done = new Promise((resolve) => {
      stream.on('data', (chunk: Buffer) => this.take(chunk));
      stream.on('end', resolve);
      stream.on('close', resolve);
      stream.on('error', resolve);
    });
  }

  private take(chunk: Buffer): void {
    const room = this.limit - this.kept;
    if (room <= 0) {
      this.truncated = true;
      return;
    }
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (part.length < chunk.length) this.truncated = true;
    this.chunks.push(part);
    this.kept += part.length;
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }

  /** What was kept as text (a character cut at the limit becomes U+FFFD). */
  text(): string {
    return this.bytes().toString('utf8');
  }
}
