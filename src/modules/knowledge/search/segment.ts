/**
 * Text → search terms, the same way for passages and queries: Unicode words from `Intl.Segmenter`
 * (dictionary-based for Chinese), NFKC-folded and lower-cased. A Chinese word of three or more characters
 * also yields its character bigrams, so a query segmented differently from the passage ("知识" vs
 * "知识库") still meets it.
 */
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });
const HAN = /\p{Script=Han}/u;
/** Longer "words" are data (hashes, base64), not something anyone searches for. */
const MAX_TERM_CHARS = 64;

export function segment(text: string): string[] {
  const terms: string[] = [];
  for (const part of segmenter.segment(text.normalize('NFKC').toLowerCase())) {
    if (part.isWordLike !== true) continue;
    const word = part.segment;
    if (word.length > MAX_TERM_CHARS) continue;
    terms.push(word);
    if (HAN.test(word)) {
      const chars = [...word];
      if (chars.length > 2) {
        for (let i = 0; i + 1 < chars.length; i += 1) terms.push(chars[i] + chars[i + 1]);
      }
    }
  }
  return terms;
}

/** PostgreSQL caps positions at 16383 and keeps at most 256 per lexeme. */
const MAX_POSITION = 16_383;
const MAX_POSITIONS_PER_TERM = 256;

/** A tsvector literal quotes each lexeme: `'` doubled, `\` escaped. */
const quoteLexeme = (term: string): string => `'${term.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/**
 * The terms as a tsvector literal (`'term':1,7 …`), cast with `::tsvector`, which takes lexemes as they
 * are: PostgreSQL's own parser (which drops or splits Chinese depending on the locale) never runs.
 */
export function termsVector(terms: readonly string[]): string {
  const positions = new Map<string, number[]>();
  terms.forEach((term, index) => {
    const list = positions.get(term) ?? [];
    if (list.length < MAX_POSITIONS_PER_TERM) list.push(Math.min(index + 1, MAX_POSITION));
    positions.set(term, list);
  });
  return [...positions]
    .map(([term, list]) => `${quoteLexeme(term)}:${[...new Set(list)].join(',')}`)
    .join(' ');
}

/** Any of the terms, as a tsquery literal (cast with `::tsquery`, again without the parser). */
export function anyTermQuery(terms: readonly string[]): string {
  return terms.map(quoteLexeme).join(' | ');
}
