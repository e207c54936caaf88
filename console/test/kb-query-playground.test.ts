import { describe, expect, it } from 'vitest';
import { fileNames, formatScore, queryBody, queryProblem } from '../src/pages/knowledge/query-playground';

describe('queryProblem', () => {
  it('refuses an empty query and a result count the service would refuse', () => {
    expect(queryProblem('   ', 10)).toBe('queryRequired');
    expect(queryProblem('cats', 0)).toBe('topKRange');
    expect(queryProblem('cats', 51)).toBe('topKRange');
    expect(queryProblem('cats', 2.5)).toBe('topKRange');
    // An emptied number field gives an empty string.
    expect(queryProblem('cats', '')).toBe('topKRange');
  });

  it('accepts the bounds', () => {
    expect(queryProblem('cats', 1)).toBeNull();
    expect(queryProblem('cats', 50)).toBeNull();
  });
});

describe('queryBody', () => {
  it('trims the query and names a file only when one is chosen', () => {
    expect(queryBody('  cats ', 3, '')).toEqual({ query: 'cats', top_k: 3 });
    expect(queryBody('cats', 3, 'pets.md')).toEqual({ query: 'cats', top_k: 3, file_name: 'pets.md' });
  });
});

describe('formatScore', () => {
  it('shows four decimals, enough to tell fusion scores apart', () => {
    expect([0.032786885, 0.016129, 4.25].map(formatScore)).toEqual(['0.0328', '0.0161', '4.2500']);
  });
});

describe('fileNames', () => {
  it('lists each name once (versions share one), sorted', () => {
    expect(fileNames([{ filename: 'b.md' }, { filename: 'a.pdf' }, { filename: 'b.md' }])).toEqual([
      'a.pdf',
      'b.md',
    ]);
  });
});
