export type Cell = string | number | boolean | Date | null | undefined | object;

const pad = (n: number) => String(n).padStart(2, '0');

/** A cell as table text: dates as `YYYY-MM-DD` (with the time when it has one), booleans as TRUE/FALSE. */
export function cellText(value: Cell): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return '';
    const date = `${value.getUTCFullYear()}-${pad(value.getUTCMonth() + 1)}-${pad(value.getUTCDate())}`;
    const h = value.getUTCHours();
    const m = value.getUTCMinutes();
    const s = value.getUTCSeconds();
    return h === 0 && m === 0 && s === 0 ? date : `${date} ${pad(h)}:${pad(m)}:${pad(s)}`;
  }
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** `|` would end the cell and a newline the row. */
const escapeCell = (text: string) =>
  text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>');

/** Cells up to the last non-empty one. */
const usedWidth = (row: readonly string[]) => row.reduce((last, cell, i) => (cell === '' ? last : i + 1), 0);

/**
 * A GitHub-style Markdown table: the first non-empty row is the header, rows are padded to the widest
 * one, and empty rows and empty trailing columns are dropped. Empty when there is no value at all.
 */
export function markdownTable(rows: readonly (readonly Cell[])[]): string {
  const texts = rows.map((row) => row.map((cell) => escapeCell(cellText(cell).trim())));
  const filled = texts.filter((row) => row.some((cell) => cell !== ''));
  if (filled.length === 0) return '';
  // Not Math.max(...rows): a sheet can have more rows than a call can take arguments.
  const width = filled.reduce((widest, row) => Math.max(widest, usedWidth(row)), 0);
  const line = (row: string[]) =>
    `| ${Array.from({ length: width }, (_, i) => row[i] ?? '').join(' | ')} |`.replace(/ {2}\|/g, ' |');
  const [header, ...body] = filled;
  return [line(header), `|${' --- |'.repeat(width)}`, ...body.map(line)].join('\n');
}
