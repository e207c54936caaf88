import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { DomainError } from '../src/common/errors/index.js';
import { ApprovalDecider, type ApprovalSubject } from '../src/modules/tools/approval/approval-decider.js';
import type { ApprovalPolicy, PolicyDecision } from '../src/modules/tools/approval/approval-policy.js';
import type { RunApproval, UserApprovalDecision } from '../src/modules/tools/approval/run-approval.js';
import { ApprovalGuard } from '../src/modules/tools/execution/guards/approval.guard.js';
import { ToolCallScope } from '../src/modules/tools/execution/tool-call-scope.js';
import {
  noRuntimeCheck,
  type DirectToolContext,
  type ToolCall,
} from '../src/modules/tools/execution/tool-execution-context.js';
import type { RegisteredTool } from '../src/modules/tools/registry/tool-registry.js';
import type { BenchContext } from './support/bench-context.js';
import { percentile } from './support/stats.js';

/** Per-call latency in microseconds. */
export interface MicroLatency {
  p50Us: number;
  p99Us: number;
  maxUs: number;
}

export interface ApprovalDecisionFigures {
  rules: number;
  warmup: number;
  calls: number;
  targetP99Ms: number;
  /** Two `performance.now()` calls back to back: the floor under every figure below. */
  timerFloor: MicroLatency;
  /** `ApprovalDecider.decide` alone. */
  decide: { noRuleMatches: MicroLatency; fiftiethRuleMatches: MicroLatency };
  /** `ApprovalGuard.canActivate` on a fresh `ToolCallScope` (built outside the timed part). */
  guard: { allowedByAuto: MicroLatency; approvedByPerson: MicroLatency; denied: MicroLatency };
}

const RULES = 100;
const MATCHING_RULE = 50;
const WARMUP_CALLS = 20_000;
const CALLS = 100_000;
const TARGET_P99_MS = 0.5;

/** The call every case decides: an MCP tool, matched as `mcp:github:create_issue`. */
const SERVER = 'github';
const TOOL = 'create_issue';

/**
 * 100 rules none of which matches `mcp:github:create_issue`, in four kinds that fail at different
 * steps: exact names, server prefixes (`mcp:srv7:*`), middle stars (the name is scanned for the
 * piece) and suffixes. With `matchAt`, that rule (1-based) is `mcp:github:*` deciding `decision`.
 */
function hundredRules(matchAt?: { rule: number; decision: PolicyDecision }): ApprovalPolicy['rules'] {
  const rules = Array.from({ length: RULES }, (_, i): ApprovalPolicy['rules'][number] => {
    switch (i % 4) {
      case 0:
        return { tool: `tool_${i}`, decision: 'deny' };
      case 1:
        return { tool: `mcp:srv${i}:*`, decision: 'ask' };
      case 2:
        return { tool: `mcp:*:delete_${i}_*`, decision: 'deny' };
      default:
        return { tool: `*_v${i}`, decision: 'ask' };
    }
  });
  if (matchAt !== undefined)
    rules[matchAt.rule - 1] = { tool: `mcp:${SERVER}:*`, decision: matchAt.decision };
  return rules;
}

const subject: ApprovalSubject = {
  name: TOOL,
  base: false,
  sideEffects: 'external',
  mcp: { server: SERVER },
};

const tool: RegisteredTool = {
  metadata: {
    name: TOOL,
    category: 'mcp',
    tags: [SERVER],
    displayName: TOOL,
    description: 'Creates an issue.',
    schema: z.strictObject({}),
    resources: [],
    forbiddenForSubagents: false,
    sideEffects: subject.sideEffects,
    mcp: subject.mcp,
    boundsOwnOutput: false,
    base: false,
  },
  handler: () => Promise.resolve('created'),
  availability: () => ({ available: true, reason: null }),
};

const approved: UserApprovalDecision = { decision: 'approve', by: 'bench-user', remember: false };

/** A direct call context (no runtime around it) carrying the run's approval. */
function directContext(approval: RunApproval): DirectToolContext {
  const tools = new Set([TOOL]);
  return {
    user: { id: 'bench-user', role: 'user', departmentId: 'bench-department' },
    runId: 'bench-run',
    threadId: 'bench-thread',
    leaseToken: 'bench',
    workdir: '/home/gem/user-data/workdir/bench/',
    executableTools: tools,
    visibleTools: tools,
    isSubagent: false,
    verifyAuthorization: noRuntimeCheck,
    approval,
  };
}

function latencyOf(samples: number[]): MicroLatency {
  return {
    p50Us: percentile(samples, 50),
    p99Us: percentile(samples, 99),
    maxUs: samples.reduce((a, b) => Math.max(a, b)),
  };
}

/** Times `run` once per call, after `WARMUP_CALLS` untimed calls; `prepare` runs outside the timing. */
function measure<T>(prepare: (i: number) => T, run: (prepared: T) => void): MicroLatency {
  for (let i = 0; i < WARMUP_CALLS; i++) run(prepare(i));
  const samples: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const prepared = prepare(i);
    const started = performance.now();
    run(prepared);
    samples.push((performance.now() - started) * 1000);
  }
  return latencyOf(samples);
}

/** As `measure`, for a `run` that is awaited (the guard's promise, settled in microtasks). */
async function measureAwaited<T>(
  prepare: (i: number) => T,
  run: (prepared: T) => Promise<void>,
): Promise<MicroLatency> {
  for (let i = 0; i < WARMUP_CALLS; i++) await run(prepare(i));
  const samples: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const prepared = prepare(i);
    const started = performance.now();
    await run(prepared);
    samples.push((performance.now() - started) * 1000);
  }
  return latencyOf(samples);
}

/** Fails the bench when a case does not decide what it is meant to measure. */
function expectDecision(decider: ApprovalDecider, decision: PolicyDecision, decidedBy: string): void {
  const verdict = decider.decide(subject, new Set());
  if (verdict.decision !== decision || verdict.decidedBy !== decidedBy)
    throw new Error(`expected ${decision} by ${decidedBy}, got ${JSON.stringify(verdict)}`);
}

/**
 * The approval policy's cost per tool call, in process: (1) `ApprovalDecider.decide` with 100 rules,
 * none matching (all scanned, then `auto`) and the 50th matching; (2) the whole
 * `ApprovalGuard.canActivate` on a `ToolCallScope` with a direct context carrying the approval: allowed
 * after all 100 rules, asked by rule 50 and approved by the person, denied by rule 50 (the refusal
 * thrown); the thread's approvals already read, as for every call of an execution after the first ask.
 * p50/p99/max in µs over 100,000 calls after 20,000 warm-up calls each.
 */
export async function runApprovalDecisionBench(context: BenchContext): Promise<ApprovalDecisionFigures> {
  const noMatch = new ApprovalDecider({ default: 'auto', rules: hundredRules() });
  const asksAtFifty = new ApprovalDecider({
    default: 'auto',
    rules: hundredRules({ rule: MATCHING_RULE, decision: 'ask' }),
  });
  const deniesAtFifty = new ApprovalDecider({
    default: 'auto',
    rules: hundredRules({ rule: MATCHING_RULE, decision: 'deny' }),
  });
  expectDecision(noMatch, 'allow', 'auto');
  expectDecision(asksAtFifty, 'ask', `rule:${MATCHING_RULE}`);
  expectDecision(deniesAtFifty, 'deny', `rule:${MATCHING_RULE}`);

  const remembered: ReadonlySet<string> = new Set(['execute', 'mcp:fs:write_file']);
  // Results are folded into this, so no call can be optimized away.
  let sink = 0;

  context.progress(`approval: timer floor, ${WARMUP_CALLS} warm-up + ${CALLS} calls`);
  const timerFloor = measure(
    () => null,
    () => undefined,
  );

  context.progress(`approval: ApprovalDecider.decide with ${RULES} rules, 2 cases`);
  const decideWith = (decider: ApprovalDecider) =>
    measure(
      () => null,
      () => {
        sink += decider.decide(subject, remembered).decidedBy.length;
      },
    );
  const decide = { noRuleMatches: decideWith(noMatch), fiftiethRuleMatches: decideWith(asksAtFifty) };

  context.progress(`approval: ApprovalGuard.canActivate on a ToolCallScope, 3 cases`);
  const guard = new ApprovalGuard();
  const guardWith = (decider: ApprovalDecider, refused: boolean) => {
    const decisions = new Map<string, UserApprovalDecision>();
    const read = Promise.resolve(remembered);
    const toolContext = directContext({ decider, remembered: () => read, decisions });
    return measureAwaited(
      (i) => {
        const call: ToolCall = { id: `call-${i}`, name: TOOL, args: {} };
        decisions.clear();
        decisions.set(call.id, approved);
        return new ToolCallScope(call, toolContext, tool);
      },
      async (scope) => {
        try {
          await guard.canActivate(scope);
          if (refused) throw new Error('the guard let a denied call through');
        } catch (thrown) {
          if (!refused || !(thrown instanceof DomainError)) throw thrown;
        }
        sink += scope.approval?.verdict.decidedBy.length ?? 0;
      },
    );
  };
  const guardFigures = {
    allowedByAuto: await guardWith(noMatch, false),
    approvedByPerson: await guardWith(asksAtFifty, false),
    denied: await guardWith(deniesAtFifty, true),
  };
  if (sink === 0) throw new Error('no verdict was read');

  return {
    rules: RULES,
    warmup: WARMUP_CALLS,
    calls: CALLS,
    targetP99Ms: TARGET_P99_MS,
    timerFloor,
    decide,
    guard: guardFigures,
  };
}
