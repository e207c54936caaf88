import { archiveLimitsOf } from '../../../src/modules/ocr/archive/archive-limits';
import type { DocumentType } from '../../../src/modules/ocr/detect-type';
import { LocalEngine } from '../../../src/modules/ocr/engines/local-engine';
import { OcrSettings } from '../../../src/modules/ocr/ocr-settings';
import { ConversionRunner } from '../../../src/modules/ocr/worker/conversion-runner';
import { makeDocx } from '../../support/fixtures/make-docx';
import { bloatPart, looseWhitespace } from '../../support/fixtures/make-lying-zip';
import { makePdf } from '../../support/fixtures/make-pdf';
import { makePptx } from '../../support/fixtures/make-pptx';
import { renderTextImage } from '../../support/fixtures/make-text-image';
import { makeXlsx } from '../../support/fixtures/make-xlsx';

/** The local engine through its real worker threads (the TypeScript worker entry, compiled by swc). */
describe('local engine', () => {
  const settings = new OcrSettings({ maxPdfPages: 3, maxImagePixels: 2_000_000 });
  const runner = new ConversionRunner(settings);
  const engine = new LocalEngine(settings, runner);
  const never = new AbortController().signal;
  const convert = (type: DocumentType, bytes: Uint8Array, signal = never) =>
    engine.convert({ fileName: `file.${type}`, type, bytes }, signal);

  afterEach(() => expect(runner.liveWorkers).toBe(0));

  it('reads the text layer of a PDF, page by page', async () => {
    const pdf = await makePdf([['Quarterly report alpha', '年度报告中文内容'], ['Page two says bravo']]);
    expect(await convert('pdf', pdf)).toBe(
      '## Page 1\n\nQuarterly report alpha\n年度报告中文内容\n\n## Page 2\n\nPage two says bravo',
    );
  });

  it('converts a Word document with its heading, bold text and table', async () => {
    const docx = await makeDocx({
      title: 'Design notes v2.0',
      paragraphs: ['Summary first.', '第二段：中文内容。'],
      table: [
        ['Item', 'Qty'],
        ['apple', '3'],
      ],
    });
    expect(await convert('docx', docx)).toBe(
      [
        '# Design notes v2.0',
        '**Summary first.**',
        '第二段：中文内容。',
        '| Item | Qty |\n| --- | --- |\n| apple | 3 |',
      ].join('\n\n'),
    );
  });

  it('turns each sheet of a workbook into a Markdown table', async () => {
    const xlsx = await makeXlsx([
      {
        name: 'Sales',
        rows: [
          ['Region', 'Amount', 'Closed'],
          ['North', 1200.5, new Date(Date.UTC(2024, 0, 31))],
          ['南方', 980, null],
        ],
      },
      { name: 'Empty', rows: [] },
      { name: 'Notes', rows: [['a|b']] },
    ]);
    expect(await convert('xlsx', xlsx)).toBe(
      [
        '## Sales',
        '| Region | Amount | Closed |\n| --- | --- | --- |\n| North | 1200.5 | 2024-01-31 |\n| 南方 | 980 | |',
        '## Notes',
        '| a\\|b |\n| --- |',
      ].join('\n\n'),
    );
  });

  it('reads slides in presentation order, whatever their part names', async () => {
    const pptx = makePptx(
      [
        ['Welcome deck', 'Agenda & goals'],
        ['第二张幻灯片', 'line a\nline b'],
      ],
      { numberPartsBackwards: true },
    );
    expect(await convert('pptx', pptx)).toBe(
      '## Slide 1\n\nWelcome deck\n\nAgenda & goals\n\n## Slide 2\n\n第二张幻灯片\n\nline a\nline b',
    );
  });

  it('recognises English and Simplified Chinese in an image, offline', async () => {
    const png = renderTextImage([
      'The quick brown fox jumps',
      'over the lazy dog 2024',
      '文档解析测试中文识别',
    ]);
    const text = await convert('png', png);
    expect(text.toLowerCase()).toEqual(expect.stringContaining('quick brown fox'));
    expect(text.toLowerCase()).toEqual(expect.stringContaining('lazy dog'));
    expect(text).toContain('文档解析');
  });

  it('refuses a PDF over the page limit', async () => {
    const pdf = await makePdf([['1'], ['2'], ['3'], ['4']]);
    await expect(convert('pdf', pdf)).rejects.toMatchObject({
      code: 'ocr.too_many_pages',
      details: { pages: 4, limit_pages: 3 },
    });
  });

  it('refuses an image over the pixel limit, read from its header', async () => {
    const big = renderTextImage(Array.from({ length: 20 }, (_, i) => `line ${i}`));
    await expect(convert('png', big)).rejects.toMatchObject({ code: 'ocr.image_too_large' });
  });

  it('reports a damaged document as unreadable', async () => {
    const pdf = await makePdf([['hello']]);
    await expect(convert('pdf', pdf.subarray(0, 200))).rejects.toMatchObject({ code: 'ocr.unreadable' });
    for (const type of ['docx', 'xlsx', 'pptx'] as const) {
      await expect(convert(type, Buffer.from('PK\x03\x04broken', 'latin1'))).rejects.toMatchObject({
        code: 'ocr.unreadable',
        message: expect.stringContaining(`The ${type.toUpperCase()} file could not be read`),
      });
    }
  });

  it('terminates the conversion, OCR thread included, when the call is aborted', async () => {
    const controller = new AbortController();
    const png = renderTextImage(Array.from({ length: 15 }, (_, i) => `Abort me while recognising line ${i}`));
    const pending = convert('png', png, controller.signal);
    // Wait for the conversion thread to be up (slow on a loaded machine), then let it get into recognition.
    for (let waited = 0; runner.liveWorkers === 0 && waited < 15_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(runner.liveWorkers).toBe(1);
    const abortedAt = Date.now();
    controller.abort(new Error('run cancelled'));
    await expect(pending).rejects.toThrow('run cancelled');
    expect(Date.now() - abortedAt).toBeLessThan(1000);
    expect(runner.liveWorkers).toBe(0);
    // Nothing keeps computing: a surviving tesseract thread would burn about a core without end, while
    // the process's own teardown and background compilation settle within a second even when loaded.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const before = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const used = process.cpuUsage(before);
    expect((used.user + used.system) / 1000).toBeLessThan(300);
  });

  it('stops running conversions when the application shuts down', async () => {
    const stopping = new ConversionRunner(new OcrSettings());
    const pending = stopping.run(
      {
        type: 'png',
        bytes: renderTextImage(['Shut down']),
        maxPdfPages: 1,
        archiveLimits: archiveLimitsOf(new OcrSettings()),
      },
      never,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stopping.liveWorkers).toBe(1);
    await stopping.onModuleDestroy();
    await expect(pending).rejects.toThrow('exited');
    expect(stopping.liveWorkers).toBe(0);
  });

  describe('Office archives whose declared sizes lie (1 KiB declared for a part that inflates to 8 MiB)', () => {
    const MB = 1024 * 1024;
    const small = new OcrSettings({ maxUnzippedBytes: 2 * MB });
    const smallRunner = new ConversionRunner(small);
    const capped = new LocalEngine(small, smallRunner);
    const office = {
      docx: {
        make: () => makeDocx({ title: 'Still served', paragraphs: ['next'] }),
        part: 'word/document.xml',
      },
      xlsx: {
        make: () => makeXlsx([{ name: 'S', rows: [['Still served']] }]),
        part: 'xl/worksheets/sheet1.xml',
      },
      pptx: { make: () => Promise.resolve(makePptx([['Still served']])), part: 'ppt/slides/slide1.xml' },
    } as const;
    afterEach(() => expect(smallRunner.liveWorkers).toBe(0));

    it.each(['docx', 'xlsx', 'pptx'] as const)(
      'stops inflating a %s at the unzipped-bytes cap, answers ocr.archive_too_large and serves the next call',
      async (type) => {
        const { make, part } = office[type];
        const bomb = bloatPart(await make(), part, looseWhitespace(8 * MB));
        expect(bomb.length).toBeLessThan(3 * MB);
        const run = (bytes: Uint8Array) => capped.convert({ fileName: `f.${type}`, type, bytes }, never);
        await expect(run(bomb)).rejects.toMatchObject({
          code: 'ocr.archive_too_large',
          details: { limit: `${2 * MB} bytes` },
        });
        expect(await run(await make())).toContain('Still served');
      },
    );

    it.each(['docx', 'xlsx', 'pptx'] as const)(
      'refuses a %s part that inflates over 200 times its compressed size, under the byte cap',
      async (type) => {
        const { make, part } = office[type];
        const bomb = bloatPart(await make(), part, Buffer.alloc(8 * MB, 0x20));
        await expect(convert(type, bomb)).rejects.toMatchObject({
          code: 'ocr.archive_too_large',
          details: { limit: 'a ratio of 200 between an entry and its compressed size' },
        });
      },
    );
  });
});
