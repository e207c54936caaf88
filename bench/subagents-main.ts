import { runSubagentsBench } from './subagents.bench.js';
import { runBenchMain } from './support/bench-main.js';
import { subagentLines } from './support/report.js';
import { round } from './support/stats.js';

/** `npm run bench:subagents`: only the subagents figure (the full set is `npm run bench`). */
runBenchMain(
  async (context) => {
    const figures = await runSubagentsBench(context);
    const json = JSON.stringify({ subagents: figures }, (_k, v: unknown) =>
      typeof v === 'number' ? round(v, 2) : v,
    );
    return `${subagentLines(figures).join('\n')}\n${json}`;
  },
  { usesRedis: true },
);
