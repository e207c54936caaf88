import { storableJson, storableText } from '../../../src/common/text/storable-text';

describe('storable text', () => {
  it('replaces NUL and unpaired surrogates with U+FFFD and keeps surrogate pairs', () => {
    expect(storableText('a\u0000b\u0000')).toBe('a\uFFFDb\uFFFD');
    expect(storableText('x\ud800y\udc00z')).toBe('x\uFFFDy\uFFFDz');
    expect(storableText('emoji 😀 stays')).toBe('emoji 😀 stays');
    expect(storableText('plain')).toBe('plain');
  });

  it('cleans every string and key of a JSON value, leaving other values as they are', () => {
    expect(storableJson({ 'k\u0000': ['v\ud800', 1, null, true, { deep: 'a\u0000' }] })).toEqual({
      'k\uFFFD': ['v\uFFFD', 1, null, true, { deep: 'a\uFFFD' }],
    });
  });
});
