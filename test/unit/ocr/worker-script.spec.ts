import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workerScriptFor } from '../../../src/modules/ocr/worker/worker-script';

describe('workerScriptFor', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ocr-worker-script-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('runs the compiled sibling when there is one (dist/)', async () => {
    await writeFile(join(dir, 'job.worker.js'), '');
    await writeFile(join(dir, 'job.worker.ts'), '');
    expect(workerScriptFor(dir, 'job.worker')).toEqual({ source: join(dir, 'job.worker.js'), eval: false });
  });

  it('otherwise boots the TypeScript source through swc (tests)', async () => {
    await writeFile(join(dir, 'job.worker.ts'), '');
    const script = workerScriptFor(dir, 'job.worker');
    expect(script.eval).toBe(true);
    expect(script.source).toContain(JSON.stringify(join(dir, 'job.worker.ts')));
    expect(script.source).toContain("require('node:module')");
  });

  it('fails loudly when neither exists', () => {
    expect(() => workerScriptFor(dir, 'missing')).toThrow('worker entry missing.js or missing.ts not found');
  });
});
