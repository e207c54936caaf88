import { describe, expect, it } from 'vitest';
import { SseParser, type SseFrame } from '../src/stream/sse-parser';

/** Feeds every chunk to one parser and returns all the frames it completed. */
function parseChunks(chunks: readonly string[]): SseFrame[] {
  const parser = new SseParser();
  return chunks.flatMap((chunk) => parser.push(chunk));
}

const STREAM = [
  ': heartbeat',
  'id: 1',
  'event: status',
  'data: {"seq":1,"type":"status","payload":{"status":"queued"}}',
  '',
  ': heartbeat',
  '',
  'id: 2',
  'event: message_delta',
  'data: {"seq":2,"delta":"héllo 世界"}',
  '',
  'id: 3',
  'data: line one',
  'data: line two',
  '',
  '',
].join('\n');

const EXPECTED: SseFrame[] = [
  { id: '1', event: 'status', data: '{"seq":1,"type":"status","payload":{"status":"queued"}}' },
  { id: '2', event: 'message_delta', data: '{"seq":2,"delta":"héllo 世界"}' },
  { id: '3', event: 'message', data: 'line one\nline two' },
];

describe('SseParser', () => {
  it('parses a whole multi-frame text given in one chunk', () => {
    expect(parseChunks([STREAM])).toEqual(EXPECTED);
  });

  it('gives the same frames whatever position a two-chunk split falls at', () => {
    for (let split = 0; split <= STREAM.length; split++) {
      const frames = parseChunks([STREAM.slice(0, split), STREAM.slice(split)]);
      expect(frames, `split at ${split}`).toEqual(EXPECTED);
    }
  });

  it('gives the same frames when fed one character at a time', () => {
    expect(parseChunks([...STREAM])).toEqual(EXPECTED);
  });

  it('returns a frame only once its blank line has arrived', () => {
    const parser = new SseParser();
    expect(parser.push('id: 1\ndata: a')).toEqual([]);
    expect(parser.push('bc\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ id: '1', event: 'message', data: 'abc' }]);
  });

  it('accepts CRLF line endings, at every split point', () => {
    const crlf = STREAM.replace(/\n/g, '\r\n');
    expect(parseChunks([crlf])).toEqual(EXPECTED);
    for (let split = 0; split <= crlf.length; split++) {
      const frames = parseChunks([crlf.slice(0, split), crlf.slice(split)]);
      expect(frames, `split at ${split}`).toEqual(EXPECTED);
    }
  });

  it('accepts lone CR line endings, at every split point', () => {
    // A CR that ends the text read so far may be half of a CRLF: the text after it settles that.
    const cr = STREAM.replace(/\n/g, '\r') + ': heartbeat\r';
    expect(parseChunks([cr])).toEqual(EXPECTED);
    for (let split = 0; split <= cr.length; split++) {
      const frames = parseChunks([cr.slice(0, split), cr.slice(split)]);
      expect(frames, `split at ${split}`).toEqual(EXPECTED);
    }
  });

  it('reads a CRLF split between two chunks as one line end, not as an extra blank line', () => {
    const parser = new SseParser();
    expect(parser.push('data: a\r')).toEqual([]);
    // Were the CR and the LF two line ends, this LF would be a blank line and end the frame here.
    expect(parser.push('\ndata: b\r')).toEqual([]);
    expect(parser.push('\n\r')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ id: null, event: 'message', data: 'a\nb' }]);
  });

  it('takes a lone CR ending a chunk as a line end once the next chunk does not start with LF', () => {
    const parser = new SseParser();
    expect(parser.push('data: a\r\r')).toEqual([]);
    expect(parser.push('data: b\r\r')).toEqual([{ id: null, event: 'message', data: 'a' }]);
  });

  it('accepts mixed line endings in one stream', () => {
    expect(parseChunks(['id: 9\r\nevent: x\rdata: 1\ndata: 2\r\n\n'])).toEqual([
      { id: '9', event: 'x', data: '1\n2' },
    ]);
  });

  it('ignores comment and heartbeat lines, even between the fields of a frame', () => {
    const frames = parseChunks([': heartbeat\n\n:\n\ndata: a\n: keep-alive\ndata: b\n\n: heartbeat\n\n']);
    expect(frames).toEqual([{ id: null, event: 'message', data: 'a\nb' }]);
  });

  it('emits nothing for a text made only of heartbeats and blank lines', () => {
    expect(parseChunks([': heartbeat\n\n', ': heartbeat\r\n\r\n', '\n\n'])).toEqual([]);
  });

  it('joins multi-line data with \\n and keeps empty data lines', () => {
    expect(parseChunks(['data: first\ndata:\ndata: third\n\n'])).toEqual([
      { id: null, event: 'message', data: 'first\n\nthird' },
    ]);
  });

  it('strips exactly one space after the colon and keeps the rest of the value', () => {
    expect(parseChunks(['data:no-space\n\n', 'data:  two spaces\n\n', 'data: a: b\n\n'])).toEqual([
      { id: null, event: 'message', data: 'no-space' },
      { id: null, event: 'message', data: ' two spaces' },
      { id: null, event: 'message', data: 'a: b' },
    ]);
  });

  it('reads the id and event fields, defaulting the event to "message" and the id to null', () => {
    expect(parseChunks(['id: 42\nevent: done\ndata: {}\n\ndata: x\n\n'])).toEqual([
      { id: '42', event: 'done', data: '{}' },
      { id: null, event: 'message', data: 'x' },
    ]);
  });

  it('does not carry the id or event of one frame into the next', () => {
    const parser = new SseParser();
    expect(parser.push('id: 5\nevent: status\ndata: a\n\n')).toEqual([
      { id: '5', event: 'status', data: 'a' },
    ]);
    expect(parser.push('data: b\n\n')).toEqual([{ id: null, event: 'message', data: 'b' }]);
  });

  it('ignores unknown fields', () => {
    expect(parseChunks(['retry: 3000\nfoo: bar\ndata: x\n\n'])).toEqual([
      { id: null, event: 'message', data: 'x' },
    ]);
  });
});
