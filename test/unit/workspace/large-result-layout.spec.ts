import { largeResultLayout } from '../../../src/modules/workspace/large-result-layout';

describe('the text a large result is saved as', () => {
  const longJson = JSON.stringify({
    items: Array.from({ length: 200 }, (_, i) => ({ i, v: 'x'.repeat(20) })),
  });

  it('indents a JSON document that has a line read_file would cut', () => {
    const saved = largeResultLayout(longJson);
    expect(JSON.parse(saved)).toEqual(JSON.parse(longJson));
    expect(saved.split('\n').every((line) => line.length <= 2000)).toBe(true);
    expect(saved.startsWith('{\n  "items": [\n    {\n      "i": 0,')).toBe(true);
  });

  it('keeps as it came: short lines, text that is not JSON, and JSON that does not parse', () => {
    const lines = Array.from({ length: 500 }, (_, i) => `{"row": ${i}}`).join('\n');
    const prose = 'word '.repeat(1000);
    const broken = `${longJson.slice(0, -1)}`;
    const scalar = `"${'s'.repeat(3000)}"`;
    for (const text of [lines, prose, broken, scalar]) expect(largeResultLayout(text)).toBe(text);
  });
});
