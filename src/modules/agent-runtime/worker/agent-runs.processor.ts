import { Processor, WorkerHost } from '@nestjs/bullmq';
import { BeforeApplicationShutdown, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { context } from '@opentelemetry/api';
import type { Job } from 'bullmq';
import { AppConfig } from '../../../config/app-config.js';
import { Metrics } from '../../../observability/metrics/index.js';
import { ConsumersGate } from '../../../queue/consumers-gate.js';
import { Checkpointer } from '../graph/checkpointer.js';
import { AGENT_RUNS_QUEUE, agentRunJobSchema } from '../queue/agent-runs.queue.js';
import { jobTraceContext } from '../queue/run-job-trace.js';
import { ActiveRuns } from './active-runs.js';
import { RunCancelSignals } from './run-cancel-signals.js';
import { RunExecutor } from './run-executor.js';
import { RunLogContext } from './run-log-context.js';
import { WorkerLoadGate } from './worker-load-gate.js';
import { RunTransitions } from '../runs/run-transitions.js';

/** Time kept back from the shutdown grace period to hand unfinished runs back. */
const RELEASE_MARGIN_MS = 1_000;

/**
 * Consumes `agent-runs`: each job names a run that the executor claims under a lease. A job for a run
 * that cannot be claimed (finished, held, not yet its turn) completes without doing anything; the
 * run row, not the job, decides.
 */
// Started in onApplicationBootstrap, once every module (tools, checkpointer) is initialized.
@Processor(AGENT_RUNS_QUEUE, { autorun: false })
export class AgentRunsProcessor
  extends WorkerHost
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  private readonly logger = new Logger(AgentRunsProcessor.name);
  private loadGate: WorkerLoadGate | null = null;

  constructor(
    private readonly executor: RunExecutor,
    private readonly cancelSignals: RunCancelSignals,
    private readonly active: ActiveRuns,
    private readonly checkpointer: Checkpointer,
    private readonly config: AppConfig,
    private readonly logContext: RunLogContext,
    private readonly gate: ConsumersGate,
    private readonly transitions: RunTransitions,
    private readonly metrics: Metrics,
  ) {
    super();
  }

  async onApplicationBootstrap(): Promise<void> {
    const { workerConcurrency } = this.config.runtime;
    this.worker.concurrency = workerConcurrency;
    // While the process is CPU-bound it keeps the runs it has and takes no more (`WorkerLoadGate`).
    this.loadGate = new WorkerLoadGate(this.config.runtime.maxLoopDelayMs, (open, changed) => {
      // Closed, the slots shrink to the runs still going, so a run that ends frees no slot.
      this.worker.concurrency = open ? workerConcurrency : Math.max(1, this.active.size);
      this.metrics.workerHolding(!open);
      if (changed)
        this.logger.debug(
          { concurrency: this.worker.concurrency },
          open ? 'taking runs again' : 'CPU-bound: holding',
        );
    });
    this.loadGate.start();
    // A cancel request fires BullMQ's abort signal of the job executing the run, if it runs here.
    await this.cancelSignals.listen((runId) => this.worker.cancelJob(runId, 'cancel'));
    await this.checkpointer.ready();
    // Not awaited: the worker entrypoint opens the gate only once every start-up hook has run.
    void this.gate.opened.then(() => {
      this.logger.log({ concurrency: this.worker.concurrency }, 'agent-runs worker started');
      this.worker
        .run()
        .catch((error: Error) => this.logger.error({ err: error.message }, 'agent-runs worker stopped'));
    });
  }

  /** A payload that is not a run job cannot name a run: it is logged and dropped, not retried. */
  async process(job: Job<unknown>, _token?: string, signal?: AbortSignal): Promise<string> {
    const parsed = agentRunJobSchema.safeParse(job.data);
    if (!parsed.success) {
      this.logger.error(
        { job_id: job.id, issues: parsed.error.issues },
        'agent-runs job dropped: bad payload',
      );
      return 'invalid_payload';
    }
    const data = parsed.data;
    // The execution continues the trace the job carries (a new one for a job without).
    return context.with(jobTraceContext(data), () =>
      this.logContext.run(data, async () => {
        if (data.awaitDeadline === true) await this.transitions.wakeDueAwait(data.runId);
        const result = await this.executor.execute(data.runId, signal, (run) =>
          this.logContext.adopt(data, run),
        );
        if (result !== 'claimed') this.logger.debug({ result }, 'run not claimed');
        return result;
      }),
    );
  }

  /** Stop taking runs, let active ones finish within the grace period, then hand the rest back. */
  async beforeApplicationShutdown(): Promise<void> {
    this.loadGate?.stop();
    await this.worker.pause(true).catch(() => undefined);
    const graceMs = this.config.runtime.shutdownGraceSeconds * 1000;
    await this.active.idle(Math.max(0, graceMs - RELEASE_MARGIN_MS));
    if (this.active.size > 0) {
      this.logger.warn({ runs: this.active.size }, 'grace period over: handing active runs back');
      await this.active.stopAll('shutdown');
    }
  }
}
