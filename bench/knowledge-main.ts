import { knowledgeLines, runKnowledgeBench } from './knowledge.bench.js';
import { runBenchMain } from './support/bench-main.js';

/** `npm run bench:knowledge`: indexing throughput, query latency over HTTP and recall@5 (not in `npm run bench`). */
runBenchMain(
  async (context) => {
    const figures = await runKnowledgeBench(context);
    return `${knowledgeLines(figures).join('\n')}\n${JSON.stringify({ knowledge: figures })}`;
  },
  { usesRedis: true },
);
