import { runContextBench } from './context.bench.js';
import { runBenchMain } from './support/bench-main.js';
import { round } from './support/stats.js';

/** `npm run bench:context`: the token estimate per model request, and what compression adds. */
runBenchMain(
  async (context) => {
    const f = await runContextBench(context);
    const ms = (value: number) => `${round(value, 3)} ms`;
    const rows = Object.entries(f.estimate).map(
      ([encoding, e]) =>
        `  ${encoding.padEnd(12)} ${String(e.tokens).padStart(6)} tokens   cold p50 ${ms(e.coldP50Ms)}   warm p50 ${ms(e.warmP50Ms)}`,
    );
    const json = JSON.stringify({ context: f }, (_k, v: unknown) =>
      typeof v === 'number' ? round(v, 3) : v,
    );
    return [
      `Token estimate of one request: ${f.messages} messages (${f.historyChars} characters) + 2 tool schemas`,
      ...rows,
      `  next step (one new message after a counted history): p50 ${ms(f.nextStepP50Ms)}`,
      `  o200k tokenizer built once per process: ${round(f.encoderLoadMs, 0)} ms`,
      'fitContext per model call (local fake model):',
      `  under the threshold           p50 ${ms(f.underThresholdP50Ms)}`,
      `  old tool results shortened    p50 ${ms(f.shortenOnlyP50Ms)}`,
      `  oldest turns summarized       p50 ${ms(f.summarizeP50Ms)}   (one plain model call: p50 ${ms(f.plainModelCallP50Ms)})`,
      json,
    ].join('\n');
  },
  { usesRedis: false },
);
