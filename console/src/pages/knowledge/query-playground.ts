/** The service's bounds on `top_k` (`KnowledgeQueryDto`). */
export const TOP_K_MIN = 1;
export const TOP_K_MAX = 50;
export const TOP_K_DEFAULT = 10;

export type QueryProblem = 'queryRequired' | 'topKRange';

/** What the form refuses before asking: an empty query, a result count outside 1..50 or not whole. */
export function queryProblem(query: string, topK: number | string): QueryProblem | null {
  if (!query.trim()) return 'queryRequired';
  const count = typeof topK === 'number' ? topK : Number.NaN;
  if (!Number.isInteger(count) || count < TOP_K_MIN || count > TOP_K_MAX) return 'topKRange';
  return null;
}

/** The body of `POST …/query`; the file filter only when one is chosen. */
export function queryBody(
  query: string,
  topK: number,
  fileName: string,
): { query: string; top_k: number; file_name?: string } {
  return { query: query.trim(), top_k: topK, ...(fileName ? { file_name: fileName } : {}) };
}

/** BM25 scores are a few units, fusion scores a few hundredths: four decimals show both apart. */
export function formatScore(score: number): string {
  return score.toFixed(4);
}

/** The names a query can be narrowed to, once each, in order. */
export function fileNames(files: readonly { filename: string }[]): string[] {
  return [...new Set(files.map((file) => file.filename))].sort((a, b) => a.localeCompare(b));
}
