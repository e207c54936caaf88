import type { AgentRunFigures } from '../agent-runs.bench.js';
import type { ApprovalDecisionFigures, MicroLatency } from '../approval-decision.bench.js';
import type { ApprovalResumeFigures, LatencySpread } from '../approval-resume.bench.js';
import type { ThroughputFigures } from '../auth-throughput.bench.js';
import type { ColdStartFigures } from '../cold-start.bench.js';
import type { McpFigures } from '../mcp.bench.js';
import type { SubagentFigures } from '../subagents.bench.js';
import type { SandboxFigures } from '../sandbox.bench.js';
import type { SkillResolutionFigures } from '../skills-resolution.bench.js';
import { skillResolutionLines } from '../skills-resolution.bench.js';
import type { PipelineFigures } from '../tool-pipeline.bench.js';
import { LOAD_CONNECTIONS, LOAD_SECONDS, WARMUP_SECONDS } from './load.js';
import { round } from './stats.js';

export interface Machine {
  cpus: number;
  cpuModel: string;
  node: string;
  platform: string;
  loadAverage1mAtStart: number;
}

export interface BenchReport {
  machine: Machine;
  approval: ApprovalDecisionFigures;
  approvalResume: ApprovalResumeFigures;
  toolPipeline: PipelineFigures;
  mcp: McpFigures;
  skills: SkillResolutionFigures;
  sandbox: SandboxFigures;
  coldStart: ColdStartFigures;
  throughput: ThroughputFigures;
  agentRuns: AgentRunFigures;
  subagents: SubagentFigures;
  totalSeconds: number;
}

function table(headers: string[], rows: (string | number)[][]): string {
  const cells = [headers, ...rows.map((row) => row.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  const line = (row: string[]) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [line(cells[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join(
    '\n',
  );
}

const ms = (value: number) => round(value, 0).toFixed(0);

/** The human-readable part of the output. */
export function formatReport(report: BenchReport): string {
  const { machine, coldStart, throughput } = report;
  const startRows = (
    [
      ['(a) empty database', coldStart.emptyDatabase],
      ['(b) migrated database', coldStart.migratedDatabase],
    ] as const
  ).map(([label, c]) => [
    label,
    c.runs,
    ms(c.startupMs.min),
    ms(c.startupMs.median),
    ms(c.startupMs.max),
    ms(c.shutdownMs.median),
  ]);
  const loadRows = (
    [
      ['GET /hello (bare Nest)', throughput.hello, null],
      ['GET /api/auth/me, JWT', throughput.meWithJwt, throughput.ratioToHello.meWithJwt],
      ['GET /api/auth/me, API key', throughput.meWithApiKey, throughput.ratioToHello.meWithApiKey],
    ] as const
  ).map(([label, f, ratio]) => [
    label,
    round(f.requestsPerSecond, 0).toFixed(0),
    round(f.latencyP50Ms, 1).toFixed(1),
    round(f.latencyP99Ms, 1).toFixed(1),
    f.non2xx,
    ratio === null ? '1.00' : round(ratio, 2).toFixed(2),
  ]);
  return [
    '',
    `Machine: ${machine.cpus} × ${machine.cpuModel}, Node ${machine.node} (${machine.platform}), ` +
      `1-min load average at start ${round(machine.loadAverage1mAtStart, 2)}`,
    '',
    ...approvalDecisionLines(report.approval),
    '',
    ...approvalResumeLines(report.approvalResume),
    '',
    `Tool execution boundary, no-op tool, ${report.toolPipeline.calls} sequential calls (ms per call)`,
    table(
      ['path', 'p50', 'p99'],
      [
        [
          'handler called directly',
          report.toolPipeline.directP50Ms.toFixed(4),
          report.toolPipeline.directP99Ms.toFixed(4),
        ],
        [
          'through ToolExecutor (guards, audit row, metrics)',
          report.toolPipeline.pipelineP50Ms.toFixed(4),
          report.toolPipeline.pipelineP99Ms.toFixed(4),
        ],
        ['extra', report.toolPipeline.extraP50Ms.toFixed(4), report.toolPipeline.extraP99Ms.toFixed(4)],
      ],
    ),
    `ratio at p50: ${round(report.toolPipeline.ratioP50, 1)}x`,
    '',
    ...mcpLines(report.mcp),
    '',
    ...skillResolutionLines(report.skills),
    '',
    ...sandboxLines(report.sandbox),
    '',
    'Cold start of `node dist/src/main.js` until GET /api/health = 200 (ms)',
    table(['case', 'runs', 'min', 'median', 'max', 'SIGTERM→exit median'], startRows),
    '',
    `Throughput (autocannon, ${LOAD_CONNECTIONS} connections, ${LOAD_SECONDS} s after a ${WARMUP_SECONDS} s warm-up)`,
    table(['route', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'vs hello'], loadRows),
    '',
    ...agentRunLines(report.agentRuns),
    '',
    ...subagentLines(report.subagents),
    `Total bench time: ${round(report.totalSeconds, 0)} s`,
    '',
  ].join('\n');
}

/** Every number on one line, for scripts (`npm run bench | tail -1`). */
export function formatJsonLine(report: BenchReport): string {
  return JSON.stringify(report, (_key, value: unknown) =>
    typeof value === 'number' ? round(value, 2) : value,
  );
}

export function sequentialLines(s: AgentRunFigures['sequential']): string[] {
  const f = (value: number) => round(value, 1).toFixed(1);
  const r = (value: number) => round(value, 2).toFixed(2);
  const sequentialRow = (label: string, c: AgentRunFigures['sequential']['threeTools']) => [
    label,
    f(c.queuedP50Ms),
    f(c.queuedP99Ms),
    f(c.inProcessP50Ms),
    f(c.inProcessP99Ms),
    r(c.ratioP50),
    f(c.modelMsPerRun),
    f(c.apiCpuMsPerRun),
    f(c.workerCpuMsPerRun),
  ];
  return [
    `Agent runs, sequential: one client, one run at a time, ${s.threeTools.runs} runs per case (ms)`,
    table(
      [
        'run',
        'POST→done p50',
        'p99',
        'in-process p50',
        'p99',
        'ratio p50',
        'model/run',
        'API CPU/run',
        'worker CPU/run',
      ],
      [sequentialRow('3 × write_file', s.threeTools), sequentialRow('no tool call', s.noTools)],
    ),
    `platform time per tool step (run − model time, 3-tool minus no-tool, / 3): ${f(s.platformMsPerToolStep)} ms; ` +
      `in-process graph alone: ${f(s.inProcessMsPerToolStep)} ms`,
    '',
  ];
}

export function agentRunLines(a: AgentRunFigures): string[] {
  const f = (value: number) => round(value, 1).toFixed(1);
  return [
    ...sequentialLines(a.sequential),
    `Agent runs, fake model over HTTP with ${a.toolCallsPerRun} tool calls per run, ${a.queued.runs} runs, 10 at a time`,
    table(
      ['path', 'runs/s', 'p50 ms', 'p99 ms'],
      [
        [
          'POST → done over SSE (API, BullMQ, 1 worker ×10)',
          f(a.queued.runsPerSecond),
          f(a.queued.p50Ms),
          f(a.queued.p99Ms),
        ],
        [
          'same graph + checkpointer in-process',
          f(a.inProcess.runsPerSecond),
          f(a.inProcess.p50Ms),
          f(a.inProcess.p99Ms),
        ],
        [
          'ratio (queued / in-process)',
          round(a.ratio.throughput, 2).toFixed(2),
          round(a.ratio.p50, 2).toFixed(2),
          '',
        ],
      ],
    ),
    `POST → first SSE event: p50 ${f(a.queued.firstEventP50Ms)} ms, p99 ${f(a.queued.firstEventP99Ms)} ms`,
    `CPU per queued run: API ${f(a.queued.cpu.apiMsPerRun)} ms, worker ${f(a.queued.cpu.workerMsPerRun)} ms`,
    `Runtime assembly (steps 1-3): p50 ${round(a.assemblyP50Ms, 2)} ms, p99 ${round(a.assemblyP99Ms, 2)} ms`,
    `SSE fan-out: ${a.fanout.subscribers} subscribers on ${a.fanout.runs} concurrent runs: ` +
      `${a.fanout.eventsLost} of ${a.fanout.eventsExpected} events lost, live delivery p50 ${f(a.fanout.deliveryP50Ms)} ms, p99 ${f(a.fanout.deliveryP99Ms)} ms; ` +
      `after the start burst (${a.fanout.afterBurst.events} deliveries) p50 ${f(a.fanout.afterBurst.deliveryP50Ms)} ms, p99 ${f(a.fanout.afterBurst.deliveryP99Ms)} ms`,
    '',
  ];
}

export function mcpLines(m: McpFigures): string[] {
  return [
    `MCP, local streamable-HTTP server, ${m.calls} sequential tool calls (ms per call)`,
    table(
      ['path', 'p50'],
      [
        ['direct SDK client call', m.directP50Ms.toFixed(3)],
        ['through the ToolExecutor (pooled session)', m.pipelineP50Ms.toFixed(3)],
      ],
    ),
    `ratio at p50: ${round(m.ratioP50, 2)} (target <= 1.15)`,
    `cold discovery of ${m.coldDiscovery.servers} servers answering after ${m.coldDiscovery.listDelayMs} ms: ` +
      `median ${ms(m.coldDiscovery.medianMs)} ms (${round(m.coldDiscovery.ratioToDelay, 2)} x the delay, target <= 1.2), ` +
      `runs ${m.coldDiscovery.runsMs.map(ms).join(', ')}`,
    `warm discovery (cached lists) of the same 5 servers: p50 ${round(m.warmDiscovery.p50Ms, 2)} ms, p99 ${round(m.warmDiscovery.p99Ms, 2)} ms`,
  ];
}

export function subagentLines(s: SubagentFigures): string[] {
  return [
    `Subagents: parent starts 2 children (model calls ${s.childModelMs.a} and ${s.childModelMs.b} ms), then awaits both; ` +
      `1 worker × ${s.workerConcurrency}, median of ${s.samples}`,
    table(
      ['run', 'POST → done ms'],
      [
        ['slowest child alone', ms(s.slowestChildAloneMs)],
        ['parent + 2 children', ms(s.parentWithTwoChildrenMs)],
        ['ratio (parent / slowest alone)', round(s.ratio, 2).toFixed(2)],
      ],
    ),
  ];
}

export function sandboxLines(s: SandboxFigures): string[] {
  const f = (value: number) => round(value, 1).toFixed(1);
  const e = s.execute;
  const c = s.concurrent;
  return [
    `Sandbox: execute "true" through the ToolExecutor, ${e.calls} sequential calls after ${e.warmup} warm-up: ` +
      `p50 ${f(e.p50Ms)} ms, p99 ${f(e.p99Ms)} ms (target p50 <= ${e.targetP50Ms} ms)`,
    `  of which the sandbox run's own duration_ms: p50 ${f(e.sandboxP50Ms)} ms, p99 ${f(e.sandboxP99Ms)} ms; ` +
      `the rest (tool, workspace, pipeline) at p50 ${f(e.p50Ms - e.sandboxP50Ms)} ms`,
    `Sandbox start alone: Sandbox.run("true") over an empty folder + dispose, ${s.sandboxStart.calls} sequential: ` +
      `p50 ${f(s.sandboxStart.p50Ms)} ms, p99 ${f(s.sandboxStart.p99Ms)} ms`,
    `Sandbox, concurrent: ${c.users * c.perUser} execute calls at once (${c.users} users × ${c.perUser}), ` +
      `"${c.command}", ${c.batches.length} batches (ms)`,
    table(
      ['batch', 'completed', 'tool errors', 'p50', 'p99', 'max', 'wall'],
      c.batches.map((b, i) => [
        String(i + 1),
        `${b.completed}/${b.calls}`,
        String(b.toolErrors),
        f(b.p50Ms),
        f(b.p99Ms),
        f(b.maxMs),
        f(b.wallMs),
      ]),
    ),
    `Sandbox bench load average: ${f(s.loadAverage.start)} → ${f(s.loadAverage.end)}`,
  ];
}

export function approvalDecisionLines(a: ApprovalDecisionFigures): string[] {
  const count = (value: number) => value.toLocaleString('en-US');
  const us = (value: number) => value.toFixed(2);
  const row = (label: string, l: MicroLatency) => [label, us(l.p50Us), us(l.p99Us), us(l.maxUs)];
  const rows = [
    row(`ApprovalDecider.decide, no rule matches (all ${a.rules} scanned, auto)`, a.decide.noRuleMatches),
    row('ApprovalDecider.decide, rule 50 matches', a.decide.fiftiethRuleMatches),
    row('ApprovalGuard.canActivate, no rule matches, auto allows', a.guard.allowedByAuto),
    row('ApprovalGuard.canActivate, rule 50 asks, the person approved', a.guard.approvedByPerson),
    row('ApprovalGuard.canActivate, rule 50 denies (refusal thrown)', a.guard.denied),
  ];
  const worstP99Ms =
    Math.max(
      a.decide.noRuleMatches.p99Us,
      a.decide.fiftiethRuleMatches.p99Us,
      a.guard.allowedByAuto.p99Us,
      a.guard.approvedByPerson.p99Us,
      a.guard.denied.p99Us,
    ) / 1000;
  return [
    `Approval decision per tool call, ${a.rules} rules, ${count(a.calls)} calls per case after ${count(a.warmup)} warm-up (µs per call)`,
    table(['case', 'p50', 'p99', 'max'], rows),
    `worst p99 ${round(worstP99Ms, 4)} ms (target ≤ ${a.targetP99Ms} ms p99 with ${a.rules} rules: ` +
      `${worstP99Ms <= a.targetP99Ms ? 'met' : 'MISSED'}); timer floor p50 ${us(a.timerFloor.p50Us)} µs, ` +
      `p99 ${us(a.timerFloor.p99Us)} µs`,
  ];
}

export function approvalResumeLines(a: ApprovalResumeFigures): string[] {
  const f = (value: number) => round(value, 1).toFixed(1);
  const row = (label: string, l: LatencySpread) => [label, f(l.p50Ms), f(l.p95Ms), f(l.maxMs)];
  const s = a.stagesP50Ms;
  return [
    `Approval resume on an idle service (API, BullMQ, 1 worker ×${a.workerConcurrency}): one write_file call ` +
      `approved, ${a.samples} runs one at a time after ${a.warmup} warm-up (ms, stream already open)`,
    table(
      ['from just before POST /approvals to', 'p50', 'p95', 'max'],
      [
        row('its 200', a.post),
        row('the tool_result frame', a.postToToolResult),
        row('the done frame (second model turn included)', a.postToDone),
      ],
    ),
    `frames of the resumed run at p50: status queued ${f(s.queued)}, running ${f(s.running)}, ` +
      `tool_result ${f(s.toolResult)}, done ${f(s.done)} ms after the POST started`,
  ];
}
