import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SafeHttpClient } from '../../../src/common/http-safety/safe-http-client';
import { Secret } from '../../../src/config/secret';
import { parseConfig } from '../../../src/config/parse-config';
import type { DocumentType } from '../../../src/modules/ocr/detect-type';
import { HttpEngine } from '../../../src/modules/ocr/engines/http-engine';
import { OcrSettings, type OcrConfig } from '../../../src/modules/ocr/ocr-settings';
import { baseTestEnvironment } from '../../support/test-env';

interface Received {
  method: string;
  path: string;
  authorization: string | undefined;
  form: FormData;
}

type Reply = (res: ServerResponse) => void;

/** A fake OCR service on 127.0.0.1 that parses the multipart upload and answers as told. */
async function startOcrService() {
  const received: Received[] = [];
  let reply: Reply = (res) => res.end('');
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const request = new Request('http://fake/', {
        method: 'POST',
        headers: req.headers as Record<string, string>,
        body,
      });
      void request.formData().then((form) => {
        received.push({
          method: req.method ?? '',
          path: req.url ?? '',
          authorization: req.headers.authorization,
          form,
        });
        reply(res);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}/v1/ocr`,
    received,
    answer: (next: Reply) => (reply = next),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('http engine', () => {
  let service: Awaited<ReturnType<typeof startOcrService>>;
  let http: SafeHttpClient;
  const never = new AbortController().signal;

  beforeAll(async () => {
    service = await startOcrService();
    const config = parseConfig({
      ...baseTestEnvironment('unused'),
      ALLOW_PRIVATE_NETWORK_TARGETS: `127.0.0.1:${service.port}`,
    });
    http = new SafeHttpClient(config);
  });
  afterAll(async () => {
    await http.onModuleDestroy();
    await service.close();
  });

  const engineWith = (values: Partial<OcrConfig>) =>
    new HttpEngine(new OcrSettings({ httpUrl: service.url, ...values }), http);
  const pdfBytes = Buffer.from('%PDF-1.7\n%fake\n');
  const convert = (
    engine: HttpEngine,
    type: DocumentType = 'pdf',
    bytes: Uint8Array = pdfBytes,
    signal = never,
  ) => engine.convert({ fileName: '报告 final.pdf', type, bytes }, signal);

  it('posts the document as multipart part "file" with its type, and reads a JSON {markdown} answer', async () => {
    service.answer((res) => {
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.end(JSON.stringify({ markdown: '# 标题\n\nBody', pages: 1 }));
    });
    const engine = engineWith({ httpApiKey: new Secret('ocr-key-1') });
    expect(await convert(engine)).toBe('# 标题\n\nBody');
    const request = service.received.at(-1)!;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/ocr', authorization: 'Bearer ocr-key-1' });
    const file = request.form.get('file') as File;
    expect(file.name).toBe('报告 final.pdf');
    expect(file.type).toBe('application/pdf');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(pdfBytes);
    expect(request.form.get('type')).toBe('pdf');
  });

  it('takes a text/markdown answer as the Markdown itself, and sends no key when none is set', async () => {
    service.answer((res) => {
      res.setHeader('content-type', 'text/markdown; charset=utf-8');
      res.end('plain **markdown**');
    });
    expect(await convert(engineWith({}))).toBe('plain **markdown**');
    expect(service.received.at(-1)!.authorization).toBeUndefined();
  });

  it.each([
    ['an error status', (res: ServerResponse) => res.writeHead(503).end('down'), 'it answered HTTP 503'],
    [
      'JSON without markdown',
      (res: ServerResponse) => res.setHeader('content-type', 'application/json').end('{"text":"x"}'),
      'no "markdown" string',
    ],
    [
      'an answer over the size cap',
      (res: ServerResponse) => res.end('x'.repeat(5000)),
      'larger than allowed',
    ],
  ])('reports %s as ocr.remote_failed', async (_what, reply, message) => {
    service.answer(reply);
    await expect(convert(engineWith({ httpMaxResponseBytes: 1000 }))).rejects.toMatchObject({
      code: 'ocr.remote_failed',
      message: expect.stringContaining(message),
    });
  });

  it('gives up after its deadline without naming the service address', async () => {
    service.answer(() => undefined);
    const error = await convert(engineWith({ httpTimeoutMs: 300 })).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'ocr.remote_failed',
      message: expect.stringContaining('did not answer'),
    });
    expect(JSON.stringify(error)).not.toContain('127.0.0.1');
  });

  it('stops when the call is aborted', async () => {
    service.answer(() => undefined);
    const controller = new AbortController();
    const pending = convert(engineWith({}), 'pdf', pdfBytes, controller.signal);
    setTimeout(() => controller.abort(new Error('run cancelled')), 100);
    await expect(pending).rejects.toThrow('run cancelled');
  });

  it('refuses a private address that is not allowlisted (SSRF guard)', async () => {
    const strict = new SafeHttpClient(parseConfig(baseTestEnvironment('unused')));
    try {
      const engine = new HttpEngine(new OcrSettings({ httpUrl: service.url }), strict);
      await expect(convert(engine)).rejects.toMatchObject({
        code: 'ocr.remote_failed',
        message: expect.stringContaining('ALLOW_PRIVATE_NETWORK_TARGETS'),
      });
    } finally {
      await strict.onModuleDestroy();
    }
  });

  it('is unavailable without a configured URL, and checks image pixels like the local engine', async () => {
    const unconfigured = new HttpEngine(new OcrSettings(), http);
    expect(unconfigured.unavailableReason()).toContain('OCR_HTTP_URL');
    await expect(convert(unconfigured)).rejects.toMatchObject({ code: 'ocr.engine_unavailable' });
    const header = Buffer.from('89504e470d0a1a0a0000000d49484452000186a0000186a00800000000', 'hex');
    await expect(convert(engineWith({}), 'png', header)).rejects.toMatchObject({
      code: 'ocr.image_too_large',
    });
  });
});
