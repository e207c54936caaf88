import { runSandboxBench } from './sandbox.bench.js';
import { runBenchMain } from './support/bench-main.js';
import { sandboxLines } from './support/report.js';
import { round } from './support/stats.js';

/** `npm run bench:sandbox`: only the `execute` sandbox bench (the full set is `npm run bench`). */
runBenchMain(
  async (context) => {
    const figures = await runSandboxBench(context);
    const json = JSON.stringify({ sandbox: figures }, (_k, v: unknown) =>
      typeof v === 'number' ? round(v, 2) : v,
    );
    return `${sandboxLines(figures).join('\n')}\n${json}`;
  },
  { usesRedis: false },
);
