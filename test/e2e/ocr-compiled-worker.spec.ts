import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { makeDocx } from '../support/fixtures/make-docx';
import { makePdf } from '../support/fixtures/make-pdf';

const ROOT = join(__dirname, '../..');

/** Converts a file with the compiled ConversionRunner (dist/), as production does, in a child process. */
const SCRIPT = `
const { readFileSync } = require('node:fs');
const { ConversionRunner } = require(${JSON.stringify(join(ROOT, 'dist/src/modules/ocr/worker/conversion-runner.js'))});
const { OcrSettings } = require(${JSON.stringify(join(ROOT, 'dist/src/modules/ocr/ocr-settings.js'))});
const { archiveLimitsOf } = require(${JSON.stringify(join(ROOT, 'dist/src/modules/ocr/archive/archive-limits.js'))});
const [file, type] = process.argv.slice(1);
const settings = new OcrSettings();
const job = { type, bytes: new Uint8Array(readFileSync(file)), maxPdfPages: 10, archiveLimits: archiveLimitsOf(settings) };
new ConversionRunner(settings)
  .run(job, new AbortController().signal)
  .then((markdown) => process.stdout.write(markdown), (error) => { process.stderr.write(String(error)); process.exit(1); });
`;

describe('ocr conversion worker from the compiled build', () => {
  it('parses a PDF and a docx with dist/ (no TypeScript loader)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ocr-dist-'));
    await writeFile(join(dir, 'a.pdf'), await makePdf([['Quarterly revenue grew']]));
    await writeFile(
      join(dir, 'b.docx'),
      await makeDocx({ title: 'Release plan', paragraphs: ['Ship on Friday'] }),
    );
    const run = (file: string, type: string) =>
      promisify(execFile)(process.execPath, ['-e', SCRIPT, file, type], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '' },
      });
    expect((await run(join(dir, 'a.pdf'), 'pdf')).stdout).toContain('Quarterly revenue grew');
    expect((await run(join(dir, 'b.docx'), 'docx')).stdout).toContain('Ship on Friday');
  }, 60_000);
});
