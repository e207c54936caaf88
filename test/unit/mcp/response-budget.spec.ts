import { DomainError } from '../../../src/common/errors/index';
import { ResponseBudget } from '../../../src/modules/mcp/client/response-budget';

const KIB = 1024;

function serve(body: string, contentType: string) {
  return () => Promise.resolve(new Response(body, { headers: { 'content-type': contentType } }));
}

function budget(max: number) {
  const tooLarge = new DomainError('too_large', 'mcp.response_too_large', 'too large');
  const b = new ResponseBudget(max, () => tooLarge);
  let exceeded = 0;
  b.onExceeded = () => exceeded++;
  return { b, tooLarge, exceeded: () => exceeded };
}

describe('ResponseBudget', () => {
  it('lets an event stream of many small events through, far past the cap in total', async () => {
    const event = `event: message\r\ndata: ${'a'.repeat(KIB)}\r\n\r\n`;
    const body = event.repeat(200);
    const { b, exceeded } = budget(64 * KIB);
    const response = await b.wrap(serve(body, 'text/event-stream'))('http://x/mcp');
    expect(await response.text()).toBe(body);
    expect(exceeded()).toBe(0);
  });

  it('fails one event over the cap, once, and keeps the error to report', async () => {
    const body = `data: ${'b'.repeat(70 * KIB)}\n\n`;
    const { b, tooLarge, exceeded } = budget(64 * KIB);
    const response = await b.wrap(serve(body, 'text/event-stream; charset=utf-8'))('http://x/mcp');
    await expect(response.text()).rejects.toBeDefined();
    expect(b.exceeded).toBe(tooLarge);
    expect(exceeded()).toBe(1);
  });

  it('counts a plain body whole, and refuses a declared length over the cap before reading', async () => {
    const { b, tooLarge } = budget(64 * KIB);
    const chunked = await b.wrap(
      serve(`${'c'.repeat(40 * KIB)}\n\n${'c'.repeat(40 * KIB)}`, 'application/json'),
    )('http://x/mcp');
    await expect(chunked.text()).rejects.toBeDefined();
    expect(b.exceeded).toBe(tooLarge);

    const declared = budget(64 * KIB);
    const fetch = () =>
      Promise.resolve(
        new Response('{}', {
          headers: { 'content-length': String(65 * KIB), 'content-type': 'application/json' },
        }),
      );
    await expect(declared.b.wrap(fetch)('http://x/mcp')).rejects.toBe(declared.tooLarge);
  });
});
