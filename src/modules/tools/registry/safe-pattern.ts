/** Longest `pattern` (or `patternProperties` key) a server's schema may carry. */
export const MAX_PATTERN_LENGTH = 1_000;

const QUANTIFIER = /^(?:[*+]|\{\d+,\d*\})/;

/**
 * Whether a server's regular expression can run against the model's arguments without stalling the
 * process: short, and no repeated group that itself repeats or branches (`(a+)+`, `(\w*)*`, `(a|ab)*`),
 * the shapes of catastrophic backtracking. A heuristic that errs on refusing: the tool is then left
 * out, never run with a pattern that could hang the worker.
 */
export function isSafePattern(pattern: string): boolean {
  if (pattern.length > MAX_PATTERN_LENGTH) return false;
  const groups: boolean[] = []; // per open group: whether it repeats or branches inside
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '\\') {
      i++;
    } else if (inClass) {
      inClass = char !== ']';
    } else if (char === '[') {
      inClass = true;
    } else if (char === '(') {
      groups.push(false);
    } else if (char === ')') {
      const risky = groups.pop() ?? false;
      const repeated = QUANTIFIER.test(pattern.slice(i + 1));
      if (risky && repeated) return false;
      markOpenGroup(groups, risky || repeated);
    } else {
      markOpenGroup(groups, char === '|' || QUANTIFIER.test(pattern.slice(i)));
    }
  }
  return true;
}

function markOpenGroup(groups: boolean[], risky: boolean): void {
  if (risky && groups.length > 0) groups[groups.length - 1] = true;
}
