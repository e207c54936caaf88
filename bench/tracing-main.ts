import { runBenchMain } from './support/bench-main.js';
import { runTracingBench, tracingLines } from './tracing.bench.js';

/** `npm run bench:tracing`: sequential runs with tracing off and on (spans exported to a local sink). */
runBenchMain(
  async (context) => {
    const figures = await runTracingBench(context);
    return `${tracingLines(figures).join('\n')}\n${JSON.stringify({ tracing: figures })}`;
  },
  { usesRedis: true },
);
