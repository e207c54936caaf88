import { knowledgeMcpLines, runKnowledgeMcpBench } from './knowledge-mcp.bench.js';
import { runBenchMain } from './support/bench-main.js';

/** `npm run bench:knowledge-mcp`: only the through-MCP `query_kb` figure. */
runBenchMain(
  async (context) => {
    const figures = await runKnowledgeMcpBench(context);
    return `${knowledgeMcpLines(figures).join('\n')}\n${JSON.stringify({ knowledgeMcp: figures })}`;
  },
  { usesRedis: true },
);
