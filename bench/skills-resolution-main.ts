import { runSkillResolutionBench, skillResolutionLines } from './skills-resolution.bench.js';
import { runBenchMain } from './support/bench-main.js';

/** `npm run bench:skills`: only the skill resolution bench (the full set is `npm run bench`). */
runBenchMain(
  async (context) => {
    const figures = await runSkillResolutionBench(context);
    return `${skillResolutionLines(figures).join('\n')}\n${JSON.stringify({ skills: figures })}`;
  },
  { usesRedis: false },
);
