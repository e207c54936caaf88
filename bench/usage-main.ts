import { runBenchMain } from './support/bench-main.js';
import { usageLines, runUsageBench } from './usage.bench.js';

/**
 * `npm run bench:usage`: `GET /api/usage` p50/p99 over 1,000,000 model calls, per grouping, as an admin
 * and as a user (not in `npm run bench`: seeding a million rows takes a while, as the knowledge corpus).
 */
runBenchMain(
  async (context) => {
    const figures = await runUsageBench(context);
    return `${usageLines(figures).join('\n')}\n${JSON.stringify({ usage: figures })}`;
  },
  { usesRedis: true },
);
