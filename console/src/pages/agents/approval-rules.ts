import type { ApprovalPolicy, ApprovalRule } from '../../api/types';

export const MAX_RULES = 100;
export const MAX_PATTERN_LENGTH = 200;

export function addRule(policy: ApprovalPolicy, rule: ApprovalRule): ApprovalPolicy {
  return { ...policy, rules: [...policy.rules, rule] };
}

export function removeRule(policy: ApprovalPolicy, index: number): ApprovalPolicy {
  return { ...policy, rules: policy.rules.filter((_, at) => at !== index) };
}

export function changeRule(policy: ApprovalPolicy, index: number, rule: ApprovalRule): ApprovalPolicy {
  return { ...policy, rules: policy.rules.map((current, at) => (at === index ? rule : current)) };
}

/** Moves a rule up (-1) or down (+1): the first matching rule decides, so order matters. */
export function moveRule(policy: ApprovalPolicy, index: number, by: -1 | 1): ApprovalPolicy {
  const to = index + by;
  if (to < 0 || to >= policy.rules.length) return policy;
  const rules = [...policy.rules];
  [rules[index], rules[to]] = [rules[to], rules[index]];
  return { ...policy, rules };
}

/** The rule numbers (from 1) whose pattern the service would refuse: empty, too long, control characters. */
export function invalidRules(policy: ApprovalPolicy): number[] {
  return policy.rules.flatMap((rule, at) => {
    const pattern = rule.tool.trim();
    const control = [...pattern].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f);
    const bad = pattern === '' || pattern.length > MAX_PATTERN_LENGTH || control;
    return bad ? [at + 1] : [];
  });
}

/**
 * Names a rule may use for the tools this agent can be given: builtin tools by name, and each MCP
 * server's tools as `mcp:<server>:*` (the name rules match MCP tools by).
 */
export function toolSuggestions(tools: readonly string[], mcpServers: readonly string[]): string[] {
  return [...tools, ...mcpServers.map((server) => `mcp:${server}:*`)];
}
