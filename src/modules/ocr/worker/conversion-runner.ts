import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { OcrErrors } from '../ocr.errors.js';
import { OcrSettings } from '../ocr-settings.js';
import { archiveLimitsOf } from '../archive/archive-limits.js';
import {
  deserializeError,
  type ConversionJob,
  type ConversionReply,
  type TextFormat,
} from './conversion-job.js';
import { abortReason, Slots } from './slots.js';
import { workerScriptFor, type WorkerScript } from './worker-script.js';

let script: WorkerScript | undefined;
const conversionWorker = (): WorkerScript => (script ??= workerScriptFor(__dirname, 'conversion.worker'));

const isOutOfMemory = (error: unknown): boolean =>
  (error as NodeJS.ErrnoException | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';

/**
 * Runs local conversions (PDF and Office parsing, tesseract OCR) in worker threads, one fresh worker
 * per document, at most `maxConcurrency` at once. The event loop that serves runs and lease heartbeats
 * never parses a document; an aborted call, or one over `workerTimeoutMs`, terminates its worker (and
 * the OCR thread it started).
 */
@Injectable()
export class ConversionRunner implements OnModuleDestroy {
  private readonly slots: Slots;
  private readonly workers = new Set<Worker>();

  constructor(private readonly settings: OcrSettings) {
    this.slots = new Slots(settings.maxConcurrency);
  }

  /** Worker threads currently alive (started and not yet exited). */
  get liveWorkers(): number {
    return this.workers.size;
  }

  /** Shutdown stops conversions still running (their calls fail) instead of waiting for them. */
  async onModuleDestroy(): Promise<void> {
    await Promise.all([...this.workers].map((worker) => worker.terminate()));
  }

  /** Settles only once the worker has exited: after an abort, no work of this job goes on. */
  async run(job: Omit<ConversionJob, 'scratchDir'>, signal: AbortSignal): Promise<string> {
    const release = await this.slots.acquire(signal);
    let scratchDir: string | undefined;
    try {
      scratchDir = await mkdtemp(join(tmpdir(), 'ocr-job-'));
      return await this.runInWorker({ ...job, scratchDir }, signal);
    } finally {
      if (scratchDir !== undefined) await rm(scratchDir, { recursive: true, force: true });
      release();
    }
  }

  /** Text (a text file, a page, a CSV table, an OCR service's answer) to normalized Markdown. */
  convertText(type: TextFormat, text: Uint8Array | string, signal: AbortSignal): Promise<string> {
    const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
    const { maxPdfPages } = this.settings;
    return this.run({ type, bytes, maxPdfPages, archiveLimits: archiveLimitsOf(this.settings) }, signal);
  }

  private runInWorker(job: ConversionJob, signal: AbortSignal): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      if (signal.aborted) return reject(abortReason(signal));
      const { source, eval: isEval } = conversionWorker();
      const worker = new Worker(source, {
        eval: isEval,
        workerData: job,
        resourceLimits: { maxOldGenerationSizeMb: this.settings.workerMemoryMb },
      });
      this.workers.add(worker);
      worker.once('exit', () => this.workers.delete(worker));

      let settled = false;
      const finish = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(budget);
        signal.removeEventListener('abort', onAbort);
        void worker.terminate().then(outcome, outcome);
      };
      const onAbort = () => finish(() => reject(abortReason(signal)));
      const budget = setTimeout(
        () => finish(() => reject(OcrErrors.tooComplex({ timeoutMs: this.settings.workerTimeoutMs }))),
        this.settings.workerTimeoutMs,
      );
      signal.addEventListener('abort', onAbort, { once: true });
      worker.once('message', (reply: ConversionReply) =>
        finish(() => (reply.ok ? resolve(reply.markdown) : reject(deserializeError(reply.error)))),
      );
      worker.once('error', (error) =>
        finish(() => reject(isOutOfMemory(error) ? OcrErrors.tooComplex() : error)),
      );
      worker.once('exit', (code) =>
        finish(() => reject(new Error(`the conversion worker exited with code ${code} before answering`))),
      );
    });
  }
}
