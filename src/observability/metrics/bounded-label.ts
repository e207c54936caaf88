/** The label value every value past a label's cap is counted under. */
export const OTHER_LABEL = '(other)';

/**
 * The values one label may take in this process: the first `cap` distinct values are kept as they
 * are, every later one becomes `(other)`, so configuration or users cannot grow the series without
 * bound. A value once kept stays kept for the life of the process.
 */
export class BoundedLabel {
  private readonly kept = new Set<string>();

  constructor(private readonly cap: number) {}

  of(value: string): string {
    if (this.kept.has(value)) return value;
    if (this.kept.size >= this.cap) return OTHER_LABEL;
    this.kept.add(value);
    return value;
  }
}
