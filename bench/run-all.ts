import { arch, cpus, loadavg, platform } from 'node:os';
import { performance } from 'node:perf_hooks';
import { runAgentRunsBench } from './agent-runs.bench.js';
import { runApprovalDecisionBench } from './approval-decision.bench.js';
import { runApprovalResumeBench } from './approval-resume.bench.js';
import { runThroughputBench } from './auth-throughput.bench.js';
import { runColdStartBench } from './cold-start.bench.js';
import { runMcpBench } from './mcp.bench.js';
import { runSandboxBench } from './sandbox.bench.js';
import { runSubagentsBench } from './subagents.bench.js';
import { runSkillResolutionBench } from './skills-resolution.bench.js';
import { runToolPipelineBench } from './tool-pipeline.bench.js';
import { createBenchContext } from './support/bench-context.js';
import { BENCH_REDIS_PREFIX, BENCH_REDIS_URL } from './support/bench-env.js';
import { cleanupOnSignals, onCleanup, runCleanup, wasInterrupted } from './support/cleanup.js';
import { deleteRedisKeys } from './support/redis-keys.js';
import { formatJsonLine, formatReport, type Machine } from './support/report.js';

/** `npm run bench`: builds (npm script), then runs every bench and prints a table and one JSON line. */
async function main(): Promise<void> {
  const startedAt = performance.now();
  cleanupOnSignals();
  // Registered first, so it runs last: after every server has stopped.
  onCleanup(`delete Redis keys ${BENCH_REDIS_PREFIX}:*`, async () => {
    await deleteRedisKeys(BENCH_REDIS_URL, BENCH_REDIS_PREFIX);
  });
  const machine: Machine = {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    node: process.version,
    platform: `${platform()}-${arch()}`,
    // Other work on the machine skews every figure; a high value here means: run again when it is idle.
    loadAverage1mAtStart: loadavg()[0],
  };
  const context = await createBenchContext();
  context.progress(`Redis prefix ${BENCH_REDIS_PREFIX}, working dir ${context.workDir}`);
  // First: in process with no app, before any app has grown the heap.
  const approval = await runApprovalDecisionBench(context);
  const toolPipeline = await runToolPipelineBench(context);
  const mcp = await runMcpBench(context);
  const skills = await runSkillResolutionBench(context);
  const sandbox = await runSandboxBench(context);
  const coldStart = await runColdStartBench(context);
  const throughput = await runThroughputBench(context);
  const agentRuns = await runAgentRunsBench(context);
  const subagents = await runSubagentsBench(context);
  const approvalResume = await runApprovalResumeBench(context);
  const report = {
    machine,
    approval,
    approvalResume,
    toolPipeline,
    mcp,
    skills,
    sandbox,
    coldStart,
    throughput,
    agentRuns,
    subagents,
    totalSeconds: (performance.now() - startedAt) / 1000,
  };
  process.stdout.write(formatReport(report));
  process.stdout.write(`${formatJsonLine(report)}\n`);
}

main()
  .catch((error: unknown) => {
    process.exitCode = 1;
    if (wasInterrupted()) return;
    process.stderr.write(
      `\nBENCH FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  })
  .finally(async () => {
    await runCleanup();
    // Nothing of ours is left running; do not wait on stray handles of libraries.
    process.exit(process.exitCode ?? 0);
  });
