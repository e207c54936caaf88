/**
 * Text → search terms, the same way for passages and queries: Unicode words from `Intl.Segmenter`
 * (dictionary-based for Chinese), NFKC-folded and lower-cased. Chinese text also yields character
 * bigrams where the dictionary does not help: inside words of three or more characters ("知识库" →
 * 知识, 识库) and across runs of single characters (names and terms the dictionary does not know, which
 * it cuts into single characters), so a query segmented differently from the passage still meets it.
 */
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });
const HAN = /\p{Script=Han}/u;
/** Longer "words" are data (hashes, base64), not something anyone searches for. */
const MAX_TERM_CHARS = 64;

const bigramsOf = (chars: readonly string[]): string[] =>
  chars.slice(1).map((char, index) => chars[index] + char);

export function segment(text: string): string[] {
  const terms: string[] = [];
  let singles: string[] = [];
  const endSingles = () => {
    if (singles.length > 1) terms.push(...bigramsOf(singles));
    singles = [];
  };
  for (const part of segmenter.segment(text.normalize('NFKC').toLowerCase())) {
    if (part.isWordLike !== true) {
      if (part.segment.trim() !== '') endSingles();
      continue;
    }
    const word = part.segment;
    if (word.length > MAX_TERM_CHARS) continue;
    terms.push(word);
    if (!HAN.test(word)) {
      endSingles();
      continue;
    }
    const chars = [...word];
    if (chars.length === 1) {
      singles.push(word);
      continue;
    }
    endSingles();
    if (chars.length > 2) terms.push(...bigramsOf(chars));
  }
  endSingles();
  return terms;
}

/** How often each term occurs. */
export function termFrequencies(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}
