import { DEFAULT_APPROVAL_POLICY, type ApprovalPolicy, type PolicyDecision } from './approval-policy.js';
import { ToolGlob } from './tool-glob.js';
import { approvalName, type McpToolOrigin, type SideEffectKind } from './tool-side-effects.js';

/** What the policy looks at: the tool as offered to the run. */
export interface ApprovalSubject {
  name: string;
  base: boolean;
  sideEffects: SideEffectKind;
  mcp?: McpToolOrigin;
}

/** How the policy decided: `decidedBy` is `base`, `rule:<n>` (1-based), `default`, `auto` or `thread`. */
export interface ApprovalVerdict {
  decision: PolicyDecision;
  decidedBy: string;
  /** For the person asked: why this call needs a decision (or was allowed or denied). */
  reason: string;
}

/**
 * An agent's approval policy ready to decide calls: patterns compiled once, each call decided by
 * scanning the rules in order. Base tools are always allowed; `remember: "thread"` approvals turn an
 * `ask` into `allow` (never a `deny`).
 */
export class ApprovalDecider {
  private readonly rules: readonly { glob: ToolGlob; decision: PolicyDecision }[];

  constructor(private readonly policy: ApprovalPolicy = DEFAULT_APPROVAL_POLICY) {
    this.rules = policy.rules.map((rule) => ({ glob: new ToolGlob(rule.tool), decision: rule.decision }));
  }

  decide(subject: ApprovalSubject, remembered: ReadonlySet<string>): ApprovalVerdict {
    if (subject.base) return { decision: 'allow', decidedBy: 'base', reason: 'a base tool' };
    const name = approvalName(subject.name, subject.mcp);
    const verdict = this.byPolicy(subject, name);
    if (verdict.decision === 'ask' && remembered.has(name))
      return { decision: 'allow', decidedBy: 'thread', reason: 'approved for this thread' };
    return verdict;
  }

  private byPolicy(subject: ApprovalSubject, name: string): ApprovalVerdict {
    for (const [index, rule] of this.rules.entries()) {
      if (rule.glob.matches(name))
        return {
          decision: rule.decision,
          decidedBy: `rule:${index + 1}`,
          reason: `rule ${index + 1} ("${rule.glob.pattern}") says ${rule.decision}`,
        };
    }
    if (this.policy.default !== 'auto')
      return {
        decision: this.policy.default,
        decidedBy: 'default',
        reason: `the agent's default is ${this.policy.default}`,
      };
    return autoVerdict(subject);
  }
}

/** `auto`: commands and tools their MCP server marks destructive are asked about; the rest is allowed. */
function autoVerdict(subject: ApprovalSubject): ApprovalVerdict {
  if (subject.sideEffects === 'execute')
    return { decision: 'ask', decidedBy: 'auto', reason: 'it runs a command' };
  if (subject.mcp?.annotations?.destructiveHint === true)
    return {
      decision: 'ask',
      decidedBy: 'auto',
      reason: `MCP server "${subject.mcp.server}" marks it destructive`,
    };
  return { decision: 'allow', decidedBy: 'auto', reason: 'no side effect that needs a person' };
}
