import { Injectable } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import type { AgentRunJob } from '../queue/agent-runs.queue.js';
import type { RunEntity } from '../runs/run.entity.js';

/**
 * The fields on every log line written while a job of a run executes, whichever class writes it through
 * the Nest logger (executor, lease keeper, tool executor and tools, model client): `run_id`,
 * `request_id` (the request that created the run) and, once an answer resumed it, `resume_request_id`.
 * It is nestjs-pino's AsyncLocalStorage context, so timers and callbacks started inside keep it.
 */
@Injectable()
export class RunLogContext {
  constructor(private readonly pino: PinoLogger) {}

  run<T>(job: AgentRunJob, fn: () => Promise<T>): Promise<T> {
    return this.pino.runInContext(fn, {
      bindings: {
        run_id: job.runId,
        ...(job.requestId === undefined ? {} : { request_id: job.requestId }),
        ...(job.resumeRequestId == null ? {} : { resume_request_id: job.resumeRequestId }),
      },
    });
  }

  /** A job enqueued before jobs carried request ids: the claimed run's row names them. */
  adopt(job: AgentRunJob, run: Pick<RunEntity, 'originRequestId' | 'resumeRequestId'>): void {
    if (job.requestId !== undefined) return;
    this.pino.assign({
      request_id: run.originRequestId,
      ...(run.resumeRequestId === null ? {} : { resume_request_id: run.resumeRequestId }),
    });
  }
}
