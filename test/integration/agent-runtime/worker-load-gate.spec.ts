import { MetricsRegistry } from '../../../src/observability/metrics/metrics-registry';
import { AgentRunsProcessor } from '../../../src/modules/agent-runtime/worker/agent-runs.processor';
import type { WorkerLoadGate } from '../../../src/modules/agent-runtime/worker/worker-load-gate';
import { startRuntime, type RuntimeContext } from '../../support/runs/runtime-context';

const CONCURRENCY = 40;

/**
 * `RUN_WORKER_MAX_LOOP_DELAY_MS` wired into the worker: while the gate is closed (the event loop lags;
 * its reading is `worker-load-gate.spec.ts`'s), the worker takes no run beyond those it has (its BullMQ
 * concurrency drops to them, at least one) and says so on `yuxi_worker_holding`; once the loop keeps
 * up, its slots come back.
 */
describe('the worker holds while CPU-bound', () => {
  let runtime: RuntimeContext;

  beforeAll(async () => {
    runtime = await startRuntime({ RUN_WORKER_CONCURRENCY: String(CONCURRENCY) });
  });
  afterAll(() => runtime.close());

  it('drops its slots to the runs it has while the gate is closed, and takes them back after', async () => {
    const { ctx } = runtime;
    const processor = ctx.app.get(AgentRunsProcessor, { strict: false });
    const gate = (processor as unknown as { loadGate: WorkerLoadGate }).loadGate;
    const holding = ctx.app.get(MetricsRegistry, { strict: false }).series.workerHolding;
    const state = async () => ({
      concurrency: processor.worker.concurrency,
      holding: (await holding.get()).values[0]?.value,
    });
    gate.decide(0);
    expect(await state()).toEqual({ concurrency: CONCURRENCY, holding: 0 });

    gate.decide(10_000);
    expect(await state()).toEqual({ concurrency: 1, holding: 1 });

    gate.decide(0);
    expect(await state()).toEqual({ concurrency: CONCURRENCY, holding: 0 });
  });
});
