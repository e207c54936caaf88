import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { parseConfig } from '../../src/config/parse-config.js';
import { buildAgentGraph } from '../../src/modules/agent-runtime/graph/agent-graph.js';
import { BatchedPostgresSaver } from '../../src/modules/agent-runtime/graph/batched-postgres-saver.js';
import { ChatModelFactory } from '../../src/modules/agent-runtime/model/chat-model.factory.js';
import { argsJsonSchema } from '../../src/modules/tools/registry/args-json-schema.js';
import { writeFileSchema } from '../../src/modules/workspace/files/file-tool-schemas.js';
import type { BenchDatabase } from './bench-database.js';
import { appEnvironment, databaseUrl } from './bench-env.js';

export interface InProcessGraph {
  /** One run on a new thread, to the graph's end. */
  run(input: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * The agent graph the worker runs (`buildAgentGraph`), on the same PostgreSQL checkpointer and the
 * same model client (`ChatModelFactory`) talking to the fake model, in the bench process: tools are
 * answered in memory, and there is no queue, lease, event, message, audit or SSE.
 */
export function startInProcessGraph(
  database: BenchDatabase,
  modelBaseUrl: string,
  toolName: string,
  poolSize: number,
): InProcessGraph {
  const pool = new pg.Pool({ connectionString: databaseUrl(database.name), max: poolSize });
  const saver = new BatchedPostgresSaver(pool, 'langgraph');
  const config = parseConfig({
    ...appEnvironment({ databaseName: database.name, port: 1, dataDir: '/tmp' }),
    OPENAI_BASE_URL: modelBaseUrl,
    DEFAULT_MODEL: 'bench-model',
  });
  const model = new ChatModelFactory(config).create();
  const tools = [
    {
      type: 'function' as const,
      function: { name: toolName, description: 'Write a file', parameters: argsJsonSchema(writeFileSchema) },
    },
  ];
  const graph = buildAgentGraph(
    {
      reviewCalls: () => Promise.resolve(null),
      // The worker's model path (`RetryingChatOpenAI.streamTurn`), without the events it records.
      callModel: async (history) => {
        const turn = await model.streamTurn(history, tools, { onText: () => undefined });
        const reply = new AIMessage({
          content: turn.content,
          tool_calls: turn.toolCalls,
          usage_metadata: turn.usage,
        });
        return { reply, compacted: null };
      },
      runTools: (request) =>
        Promise.resolve({
          messages: (request.tool_calls ?? []).map(
            (call) => new ToolMessage({ content: 'ok', tool_call_id: call.id!, name: call.name }),
          ),
          activatedSkills: [],
        }),
    },
    saver,
  );
  return {
    async run(input) {
      await graph.invoke(
        { messages: [new HumanMessage(input)], runId: randomUUID() },
        { configurable: { thread_id: randomUUID() }, durability: 'sync' },
      );
    },
    close: () => pool.end(),
  };
}
