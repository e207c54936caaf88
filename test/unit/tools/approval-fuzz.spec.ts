import { performance } from 'node:perf_hooks';
import {
  ApprovalDecider,
  type ApprovalSubject,
  type ApprovalVerdict,
} from '../../../src/modules/tools/approval/approval-decider';
import {
  MAX_APPROVAL_RULES,
  MAX_TOOL_PATTERN_LENGTH,
  approvalPolicySchema,
  type ApprovalPolicy,
  type PolicyDecision,
} from '../../../src/modules/tools/approval/approval-policy';
import { ToolGlob } from '../../../src/modules/tools/approval/tool-glob';
import { approvalName } from '../../../src/modules/tools/approval/tool-side-effects';
import { referenceGlobMatch } from '../../support/approval/reference-glob';
import { seededRandom, type SeededRandom } from '../../support/approval/seeded-random';

const PRINTABLE_ASCII = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).join('');
const DECISIONS: readonly PolicyDecision[] = ['allow', 'ask', 'deny'];
const LONG_NAME = 'a'.repeat(10_000);

/** Patterns written to make a naive matcher backtrack or scan a long name many times over. */
const ADVERSARIAL_PATTERNS = [
  '*a*a*a*a*a*a*a*a*b',
  '*a*a*a*a*a*a*a*a*a',
  `${'*a'.repeat(99)}*b`,
  `${'*a'.repeat(100)}`,
  `*${'a'.repeat(198)}b`,
  `*b${'a'.repeat(198)}*`,
  `*${'a'.repeat(199)}*`,
  `${'a'.repeat(100)}*${'a'.repeat(99)}`,
  'a'.repeat(MAX_TOOL_PATTERN_LENGTH),
  '*'.repeat(MAX_TOOL_PATTERN_LENGTH),
  `${'*'.repeat(100)}b${'*'.repeat(99)}`,
  '.*.*.*.*.*(a+)+$',
];

function fuzzedPattern(random: SeededRandom): string {
  switch (random.int(0, 3)) {
    case 0:
      return random.string(PRINTABLE_ASCII, random.int(1, 40));
    case 1:
      return random.string(`${PRINTABLE_ASCII}****`, random.int(1, MAX_TOOL_PATTERN_LENGTH));
    case 2:
      return random.string('ab**', MAX_TOOL_PATTERN_LENGTH);
    default:
      return random.string('a*', random.int(1, MAX_TOOL_PATTERN_LENGTH));
  }
}

/** A name `pattern` matches: each star filled with a little random text. */
function instanceOf(pattern: string, random: SeededRandom): string {
  return pattern
    .split('*')
    .map((piece, index) => (index === 0 ? piece : random.string(PRINTABLE_ASCII, random.int(0, 3)) + piece))
    .join('');
}

function fuzzedSubject(random: SeededRandom, rules: ApprovalPolicy['rules'], index: number): ApprovalSubject {
  const sideEffects = random.pick(['none', 'workspace', 'external', 'execute'] as const);
  const name =
    index === 0
      ? LONG_NAME
      : random.pick([
          () => instanceOf(random.pick(rules).tool, random),
          () => random.string(PRINTABLE_ASCII, random.int(0, 60)),
          () => 'a'.repeat(random.int(0, 400)),
          () => random.string('ab', random.int(0, 400)),
        ])();
  if (random.int(0, 9) === 0) return { name: 'ask_user_question', base: true, sideEffects };
  if (random.int(0, 3) > 0) return { name, base: false, sideEffects };
  const annotations = random.pick([undefined, { destructiveHint: true }, { destructiveHint: 'true' }, {}]);
  return {
    name,
    base: false,
    sideEffects,
    mcp: annotations === undefined ? { server: 'fuzz' } : { server: 'fuzz', annotations },
  };
}

const DECIDED_BY = /^(base|default|auto|thread|rule:([1-9]\d*))$/;

/** The rule number a verdict names, or null when no rule decided. */
function ruleNumber(verdict: ApprovalVerdict): number | null {
  const match = DECIDED_BY.exec(verdict.decidedBy);
  if (match === null) throw new Error(`decidedBy ${JSON.stringify(verdict.decidedBy)} is not well-formed`);
  return match[2] === undefined ? null : Number(match[2]);
}

describe('approval decisions under fuzzed policies', () => {
  const random = seededRandom(0xa9_9201);
  // The adversarial patterns last: the catch-all ones among them would otherwise decide every call.
  const patterns = [
    ...Array.from({ length: 1000 - ADVERSARIAL_PATTERNS.length }, () => fuzzedPattern(random)),
    ...ADVERSARIAL_PATTERNS,
  ];
  const rules = patterns.map((tool) => ({ tool, decision: random.pick(DECISIONS) }));
  const subjects = Array.from({ length: 1000 }, (_, index) => fuzzedSubject(random, rules, index));
  const remembered = new Set(
    subjects.filter((_, index) => index % 7 === 0).map((s) => approvalName(s.name, s.mcp)),
  );

  it('compiles every pattern and matches the 10,000-character name against each without throwing', () => {
    expect(patterns).toHaveLength(1000);
    for (const pattern of patterns) expect(typeof new ToolGlob(pattern).matches(LONG_NAME)).toBe('boolean');
    expect(new ToolGlob('*a*a*a*a*a*a*a*a*b').matches(LONG_NAME)).toBe(false);
    expect(new ToolGlob(`${'*a'.repeat(100)}`).matches(LONG_NAME)).toBe(true);
    expect(new ToolGlob(`*b${'a'.repeat(198)}*`).matches(LONG_NAME)).toBe(false);
  });

  it('decides 1,000 calls against 1,000 rules: each verdict is the first matching rule’s, or the fallback', () => {
    const globs = patterns.map((pattern) => new ToolGlob(pattern));
    const decider = new ApprovalDecider({ default: 'ask', rules });
    const started = performance.now();
    const verdicts = subjects.map((subject) => decider.decide(subject, remembered));
    const elapsedMs = performance.now() - started;

    const byRule = new Set<number>();
    for (const [index, verdict] of verdicts.entries()) {
      const subject = subjects[index];
      const name = approvalName(subject.name, subject.mcp);
      expect(DECISIONS).toContain(verdict.decision);
      expect(typeof verdict.reason).toBe('string');
      const number = ruleNumber(verdict);
      if (subject.base) {
        expect(verdict).toMatchObject({ decision: 'allow', decidedBy: 'base' });
        continue;
      }
      const first = globs.findIndex((glob) => glob.matches(name));
      const decided = first === -1 ? 'ask' : rules[first].decision;
      if (decided === 'ask' && remembered.has(name)) {
        expect(verdict).toMatchObject({ decision: 'allow', decidedBy: 'thread' });
      } else if (first === -1) {
        expect(verdict).toMatchObject({ decision: 'ask', decidedBy: 'default' });
      } else {
        expect(number).toBe(first + 1);
        expect(verdict.decision).toBe(decided);
        byRule.add(first);
      }
    }
    // The calls reach many different rules, not only the first few.
    expect(byRule.size).toBeGreaterThan(50);
    // A sanity bound only, far above what it takes (about 0.1 s on a development machine).
    expect(elapsedMs).toBeLessThan(5000);
  });

  it('agrees with the reference matcher on every rule for a sample of short names', () => {
    const sample = subjects.filter((s) => !s.base && s.mcp === undefined && s.name.length <= 40).slice(0, 15);
    expect(sample.length).toBe(15);
    for (const { name } of sample)
      for (const pattern of patterns)
        if (new ToolGlob(pattern).matches(name) !== referenceGlobMatch(pattern, name))
          throw new Error(`ToolGlob(${JSON.stringify(pattern)}) on ${JSON.stringify(name)} disagrees`);
  });
});

describe('approvalPolicySchema', () => {
  const rule = (tool: string) => ({ tool, decision: 'ask' });
  const parse = (rules: unknown[], extra: Record<string, unknown> = {}) =>
    approvalPolicySchema.safeParse({ default: 'auto', rules, ...extra });

  it(`accepts ${MAX_APPROVAL_RULES} rules and refuses ${MAX_APPROVAL_RULES + 1}`, () => {
    const hundred = Array.from({ length: MAX_APPROVAL_RULES }, (_, i) => rule(`tool_${i}`));
    const accepted = parse(hundred);
    expect(accepted.success && accepted.data.rules).toHaveLength(MAX_APPROVAL_RULES);
    expect(parse([...hundred, rule('one_more')]).success).toBe(false);
  });

  it('refuses an empty pattern and one over 200 characters, accepts 200', () => {
    expect(parse([rule('')]).success).toBe(false);
    expect(parse([rule('a'.repeat(MAX_TOOL_PATTERN_LENGTH + 1))]).success).toBe(false);
    expect(parse([rule('*'.repeat(MAX_TOOL_PATTERN_LENGTH + 1))]).success).toBe(false);
    expect(parse([rule('a'.repeat(MAX_TOOL_PATTERN_LENGTH))]).success).toBe(true);
  });

  it.each([
    ['NUL', '\u0000'],
    ['tab', '\t'],
    ['line feed', '\n'],
    ['carriage return', '\r'],
    ['escape', '\u001b'],
    ['unit separator', '\u001f'],
    ['delete', '\u007f'],
    ['next line (C1)', '\u0085'],
    ['control sequence introducer (C1)', '\u009b'],
  ])('refuses a pattern with the control character %s', (_label, char) => {
    expect(parse([rule(`mcp:${char}fs:*`)]).success).toBe(false);
    expect(parse([rule(char)]).success).toBe(false);
  });

  it('accepts printable patterns: globs, punctuation, spaces and non-ASCII letters', () => {
    const patterns = [
      '*',
      'mcp:github:*',
      '*:delete_*',
      'a.b+c(d)[e]\\f?',
      'tool name',
      '工具_*',
      'é*',
      '🔧',
    ];
    const parsed = parse(patterns.map(rule));
    expect(parsed.success && parsed.data.rules.map((r) => r.tool)).toEqual(patterns);
  });

  it('fills in the defaults and refuses unknown fields, decisions and defaults', () => {
    const empty = approvalPolicySchema.safeParse({});
    expect(empty.success && empty.data).toEqual({ default: 'auto', rules: [] });
    expect(parse([], { extra: true }).success).toBe(false);
    expect(parse([{ tool: 'a', decision: 'ask', note: 'x' }]).success).toBe(false);
    expect(parse([{ tool: 'a', decision: 'maybe' }]).success).toBe(false);
    expect(approvalPolicySchema.safeParse({ default: 'deny', rules: [] }).success).toBe(false);
  });
});
