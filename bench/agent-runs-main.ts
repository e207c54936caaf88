import { runAgentRunsBench } from './agent-runs.bench.js';
import { runBenchMain } from './support/bench-main.js';
import { agentRunLines, formatJsonLine, sequentialLines } from './support/report.js';

/** `npm run bench:runs`: only the agent-runs bench (the full set is `npm run bench`). */
runBenchMain(
  async (context) => {
    const figures = await runAgentRunsBench(context);
    const json = JSON.stringify(JSON.parse(formatJsonLine({ agentRuns: figures } as never)));
    const lines = figures.queued === undefined ? sequentialLines(figures.sequential) : agentRunLines(figures);
    return `${lines.join('\n')}\n${json}`;
  },
  { usesRedis: true },
);
