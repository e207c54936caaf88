/** The start of the UTC day `days - 1` days before `now`: "the last N days" including today. */
export function periodStart(days: number, now: Date = new Date()): string {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  start.setUTCDate(start.getUTCDate() - (days - 1));
  return start.toISOString();
}

/** Each row's share of the largest total, for bar widths (0-100). */
export function barWidths(totals: readonly number[]): number[] {
  const max = Math.max(0, ...totals);
  return totals.map((total) => (max === 0 ? 0 : Math.round((total / max) * 1000) / 10));
}
