/**
 * The tool glob's meaning written the obvious way, to check `ToolGlob` against: `*` matches any run of
 * UTF-16 code units (none included), every other code unit itself. Dynamic programming over
 * pattern × name, so it costs pattern length × name length: for short inputs only.
 */
export function referenceGlobMatch(pattern: string, name: string): boolean {
  // matched[j]: the pattern read so far matches the first j code units of the name.
  let matched = Array.from({ length: name.length + 1 }, (_, j) => j === 0);
  for (const char of pattern.split('')) {
    const next = new Array<boolean>(name.length + 1).fill(false);
    for (let j = 0; j <= name.length; j++) {
      if (char === '*') next[j] = matched[j] || (j > 0 && next[j - 1]);
      else next[j] = j > 0 && matched[j - 1] && name[j - 1] === char;
    }
    matched = next;
  }
  return matched[name.length];
}
