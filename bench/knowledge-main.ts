import { knowledgeMcpLines, runKnowledgeMcpBench } from './knowledge-mcp.bench.js';
import { knowledgeLines, runKnowledgeBench } from './knowledge.bench.js';
import { runBenchMain } from './support/bench-main.js';

/**
 * `npm run bench:knowledge`: indexing throughput, query latency over HTTP and recall@5, then `query_kb`
 * through MCP (`bench:knowledge-mcp` runs only that; neither is in `npm run bench`).
 */
runBenchMain(
  async (context) => {
    const figures = await runKnowledgeBench(context);
    const mcp = await runKnowledgeMcpBench(context);
    const lines = [...knowledgeLines(figures), ...knowledgeMcpLines(mcp)];
    return `${lines.join('\n')}\n${JSON.stringify({ knowledge: figures, knowledgeMcp: mcp })}`;
  },
  { usesRedis: true },
);
