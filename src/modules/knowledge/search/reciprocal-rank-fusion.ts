import type { RankedChunk } from './lexical-ranking.js';

/** The usual constant: ranks matter, raw scores of different scales do not. */
const K = 60;

/** Reciprocal rank fusion of several best-first rankings: score = Σ 1 / (K + rank). */
export function reciprocalRankFusion(rankings: readonly RankedChunk[][]): RankedChunk[] {
  const scores = new Map<string, number>();
  for (const ranking of rankings) {
    ranking.forEach((chunk, index) =>
      scores.set(chunk.id, (scores.get(chunk.id) ?? 0) + 1 / (K + index + 1)),
    );
  }
  return [...scores]
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score || (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
}
