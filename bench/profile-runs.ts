import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { BenchApi } from './support/bench-api.js';
import { runBenchMain } from './support/bench-main.js';
import { summarizeCpuProfile, type ProfileSummary } from './support/cpu-profile-summary.js';
import { NO_TOOLS_INPUT, threeToolCallsOrText } from './support/fake-model-server.js';
import { startSplitService } from './support/split-service.js';
import { readRunEvents } from './support/sse-reader.js';

const TOOL = { name: 'write_file', args: { file_path: 'bench.txt', content: 'bench' } };
const INPUTS = { 'three-tools': 'Write the bench file three times.', 'no-tools': NO_TOOLS_INPUT } as const;

/**
 * `npm run bench:profile -- <sequential|loaded> [three-tools|no-tools] [runs]`: the split service under
 * `node --cpu-prof`, `runs` runs one at a time (sequential) or 10 clients in a closed loop (loaded), then
 * the top costs of the API and the worker process while the runs ran (start-up left out), per package
 * and per function.
 */
runBenchMain(
  async (context) => {
    const [mode = 'sequential', kind = 'three-tools', count] = process.argv.slice(2);
    if (mode !== 'sequential' && mode !== 'loaded') throw new Error(`unknown mode ${mode}`);
    const input = INPUTS[kind as keyof typeof INPUTS];
    if (input === undefined) throw new Error(`unknown run kind ${kind}`);
    const runs = Number(count ?? (mode === 'sequential' ? 100 : 300));
    const clients = mode === 'sequential' ? 1 : 10;
    const profileDir = await mkdtemp(join(tmpdir(), 'yuxi-cpu-prof-'));
    process.env.BENCH_CPU_PROF_DIR = profileDir;
    const service = await startSplitService(context, threeToolCallsOrText(TOOL.name, TOOL.args), 10);
    let wallMs: number;
    const window = { fromUs: 0, toUs: 0 };
    try {
      const api = await BenchApi.login(service.api.baseUrl);
      const threads = await Promise.all(Array.from({ length: runs }, () => api.newThread()));
      context.progress(`profile: ${runs} ${kind} runs, ${clients} client(s)`);
      let next = 0;
      const started = performance.now();
      window.fromUs = Number(process.hrtime.bigint() / 1000n);
      await Promise.all(
        Array.from({ length: clients }, async () => {
          while (next < runs) {
            const run = await api.startRun(threads[next++].id, input);
            await readRunEvents(`${api.baseUrl}${run.stream_url}`, api.bearer);
          }
        }),
      );
      wallMs = performance.now() - started;
      window.toUs = Number(process.hrtime.bigint() / 1000n);
    } finally {
      await service.stop();
    }
    const lines = [
      `${runs} ${kind} runs, ${clients} client(s), ${(wallMs / runs).toFixed(1)} ms wall per run`,
    ];
    for (const label of ['api', 'worker']) {
      const dir = join(profileDir, label);
      for (const file of await readdir(dir))
        lines.push(...render(label, runs, summarizeCpuProfile(join(dir, file), window)));
    }
    lines.push(`profiles: ${profileDir}`);
    return lines.join('\n');
  },
  { usesRedis: true },
);

function render(label: string, runs: number, summary: ProfileSummary): string[] {
  const row = (r: { name: string; ms: number; share: number }) =>
    `  ${(r.ms / runs).toFixed(2).padStart(7)} ms/run ${(r.share * 100).toFixed(1).padStart(5)} %  ${r.name}`;
  return [
    '',
    `${label}: ${(summary.totalMs / runs).toFixed(1)} ms CPU per run (busy samples while the runs ran)`,
    ' by package (self time, node internals and native code counted to their caller):',
    ...summary.byPackage.slice(0, 15).map(row),
    ' by package (inclusive):',
    ...summary.inclusive.slice(0, 20).map(row),
    ' by function (self time):',
    ...summary.byFunction.map(row),
  ];
}
