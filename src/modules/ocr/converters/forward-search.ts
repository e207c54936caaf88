/**
 * `indexOf` for a scanner that only moves forward: the last answer is kept while it still lies ahead,
 * and "not found" is final, so a text with many openers and no closer costs one pass, not one per opener.
 */
export class ForwardSearch {
  private found = -1;
  private from = -1;
  private exhausted = false;

  constructor(
    private readonly text: string,
    private readonly needle: string,
  ) {}

  /** The first index ≥ `position` where the needle starts, or -1; `position` never decreases. */
  next(position: number): number {
    if (this.exhausted) return -1;
    if (this.from >= 0 && this.found >= position && this.from <= position) return this.found;
    this.from = position;
    this.found = this.text.indexOf(this.needle, position);
    if (this.found === -1) this.exhausted = true;
    return this.found;
  }
}
