import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../..');

const sources = readdirSync(path.join(root, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts'))
  .map((file) => path.join('src', file).split(path.sep).join('/'))
  .map((file) => ({ file, text: readFileSync(path.join(root, file), 'utf8') }));

/** Files (other than `home`) whose text matches `pattern`. */
function copiesOf(pattern: RegExp, home: string): string[] {
  return sources.filter(({ file, text }) => file !== home && pattern.test(text)).map(({ file }) => file);
}

describe('helpers with one home', () => {
  it('cuts text with an ellipsis only in src/common/text/truncate.ts', () => {
    expect(copiesOf(/\.slice\(0, [^)]+\)\}…/, 'src/common/text/truncate.ts')).toEqual([]);
  });

  it('escapes LIKE patterns only in src/database/escape-like.ts', () => {
    expect(copiesOf(/\[\\\\%_\]|\[%_\\\\\]/, 'src/database/escape-like.ts')).toEqual([]);
  });

  it('spells PostgreSQL error codes only in src/database/pg-error-codes.ts', () => {
    const sqlState = /'(?:0[0-9A-Z]|2[0-9A-Z]|4[02]|5[3-8]|XX)[0-9A-Z]{3}'/;
    expect(copiesOf(sqlState, 'src/database/pg-error-codes.ts')).toEqual([]);
  });
});
