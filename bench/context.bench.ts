import { Logger } from '@nestjs/common';
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { performance } from 'node:perf_hooks';
import { fitContext, type ContextFitPorts } from '../src/modules/agent-runtime/context/fit-context.js';
import { TokenCounter, type TokenEncodingName } from '../src/modules/agent-runtime/context/token-estimate.js';
import { DEFAULT_MODEL_RETRY_OPTIONS } from '../src/modules/agent-runtime/model/model-retry-policy.js';
import {
  RetryingChatOpenAI,
  type FunctionTool,
} from '../src/modules/agent-runtime/model/retrying-chat-openai.js';
import { argsJsonSchema } from '../src/modules/tools/registry/args-json-schema.js';
import { readFileSchema, writeFileSchema } from '../src/modules/workspace/files/file-tool-schemas.js';
import type { BenchContext } from './support/bench-context.js';
import { FakeModelServer } from './support/fake-model-server.js';
import { percentile } from './support/stats.js';

export interface ContextBenchFigures {
  messages: number;
  historyChars: number;
  /** Building the o200k tokenizer (its ranks parsed), once per worker process. */
  encoderLoadMs: number;
  estimate: Record<TokenEncodingName | 'heuristic', { tokens: number; coldP50Ms: number; warmP50Ms: number }>;
  /** The estimate of one step: the counted history plus the step's new message. */
  nextStepP50Ms: number;
  /** `fitContext` of a request under the threshold (the cost every model call pays). */
  underThresholdP50Ms: number;
  /** Old tool results shortened in the request view, no summary. */
  shortenOnlyP50Ms: number;
  /** A summary of the oldest turns by the local fake model (one streamed model call). */
  summarizeP50Ms: number;
  /** One model call to the same fake, for scale. */
  plainModelCallP50Ms: number;
}

const lorem = (words: number, seed: number) =>
  Array.from(
    { length: words },
    (_, i) => ['read', 'the', 'file', 'notes', 'result', `item${(i * seed) % 97}`][i % 6],
  ).join(' ');

/** 25 turns of four messages: a question, a tool call, its (long) result, an answer. */
function longHistory(turns: number): BaseMessage[] {
  const history: BaseMessage[] = [];
  for (let t = 0; t < turns; t++) {
    history.push(new HumanMessage({ id: `u${t}`, content: `Question ${t}: ${lorem(80, t + 1)}` }));
    history.push(
      new AIMessage({
        id: `a${t}`,
        content: '',
        tool_calls: [
          { id: `c${t}`, name: 'read_file', args: { file_path: `notes-${t}.md` }, type: 'tool_call' },
        ],
      }),
    );
    history.push(
      new ToolMessage({ id: `t${t}`, content: lorem(700, t + 7), tool_call_id: `c${t}`, name: 'read_file' }),
    );
    history.push(new AIMessage({ id: `r${t}`, content: `Answer ${t}: ${lorem(60, t + 3)}` }));
  }
  return history;
}

/** The same messages as new objects with the same ids (a history read back from the checkpoint). */
const readBack = (history: BaseMessage[]) =>
  history.map((m) => {
    if (ToolMessage.isInstance(m))
      return new ToolMessage({ id: m.id, content: m.content, tool_call_id: m.tool_call_id, name: m.name });
    if (AIMessage.isInstance(m))
      return new AIMessage({ id: m.id, content: m.content, tool_calls: m.tool_calls });
    return new HumanMessage({ id: m.id, content: m.content });
  });

const timed = (fn: () => unknown) => {
  const start = performance.now();
  fn();
  return performance.now() - start;
};

async function timedAsync(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

const p50 = (samples: number[]) => percentile(samples, 50);

export async function runContextBench(context: BenchContext): Promise<ContextBenchFigures> {
  // The model client's debug line per request would drown the report.
  Logger.overrideLogger(['error', 'warn']);
  const tools: FunctionTool[] = [
    {
      type: 'function',
      function: { name: 'read_file', description: 'Read a file', parameters: argsJsonSchema(readFileSchema) },
    },
    {
      type: 'function',
      function: {
        name: 'write_file',
        description: 'Write a file',
        parameters: argsJsonSchema(writeFileSchema),
      },
    },
  ];
  const history = longHistory(25);
  const historyChars = history.reduce((n, m) => n + (m.content as string).length, 0);
  context.progress(`context: ${history.length} messages, ${historyChars} characters`);

  const encoderLoadMs = timed(() => new TokenCounter('o200k_base').text('load'));
  new TokenCounter('cl100k_base').text('load');

  const estimate = {} as ContextBenchFigures['estimate'];
  for (const encoding of ['o200k_base', 'cl100k_base', null] as const) {
    const cold: number[] = [];
    let tokens = 0;
    // Cold: a new counter and new message objects each time (nothing counted yet).
    for (let i = 0; i < 20; i++) {
      const counter = new TokenCounter(encoding);
      const messages = readBack(history).map((m, j) => Object.assign(m, { id: `${m.id}-${i}-${j}` }));
      cold.push(timed(() => (tokens = counter.request(messages, tools))));
    }
    const counter = new TokenCounter(encoding);
    counter.request(history, tools);
    const warm = Array.from({ length: 500 }, () => timed(() => counter.request(history, tools)));
    estimate[encoding ?? 'heuristic'] = { tokens, coldP50Ms: p50(cold), warmP50Ms: p50(warm) };
  }
  // A run's next step: the history counted before, one new tool result.
  const counter = new TokenCounter('o200k_base');
  counter.request(history, tools);
  const nextStep = Array.from({ length: 100 }, (_, i) => {
    const added = new ToolMessage({
      id: `next-${i}`,
      content: lorem(700, i),
      tool_call_id: 'c0',
      name: 'read_file',
    });
    return timed(() => counter.request([...history, added], tools));
  });

  const fake = await FakeModelServer.start(() => ({ text: `Summary: ${lorem(120, 5)}` }));
  try {
    const model = new RetryingChatOpenAI({
      model: 'gpt-4o-mini',
      apiKey: 'bench',
      configuration: { baseURL: fake.baseUrl },
      streaming: true,
      streamUsage: true,
      retry: DEFAULT_MODEL_RETRY_OPTIONS,
    });
    const tokens = estimate.o200k_base.tokens;
    const ports = (windowTokens: number, ratio = 0.8): ContextFitPorts => ({
      model,
      context: { windowTokens, compressAboveTokens: Math.floor(windowTokens * ratio) },
      signal: new AbortController().signal,
      runId: null,
      emit: () => Promise.resolve(),
      saveSummary: () => Promise.resolve(),
      recordSummaryCall: () => Promise.resolve(),
    });
    const run = async (windowTokens: number, count: number) => {
      const samples: number[] = [];
      for (let i = 0; i < count; i++)
        samples.push(
          await timedAsync(() => fitContext(ports(windowTokens), history, [], tools, { force: false })),
        );
      return p50(samples);
    };
    const underThresholdP50Ms = await run(tokens * 2, 200);
    // Over the threshold until old results are shortened; under it after.
    const shortenOnlyP50Ms = await run(Math.ceil((tokens * 0.6) / 0.8), 200);
    const summarizeP50Ms = await run(Math.ceil((tokens * 0.1) / 0.8), 30);
    const plain: number[] = [];
    for (let i = 0; i < 30; i++)
      plain.push(
        await timedAsync(() => model.streamTurn([new HumanMessage('hi')], [], { onText: () => undefined })),
      );
    return {
      messages: history.length,
      historyChars,
      encoderLoadMs,
      estimate,
      nextStepP50Ms: p50(nextStep),
      underThresholdP50Ms,
      shortenOnlyP50Ms,
      summarizeP50Ms,
      plainModelCallP50Ms: p50(plain),
    };
  } finally {
    await fake.close();
  }
}
