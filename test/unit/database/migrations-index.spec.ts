import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS } from '../../../migrations/index';

describe('migrations/index.ts', () => {
  it('lists every migration file in the folder, in timestamp order', () => {
    const files = readdirSync(join(__dirname, '../../../migrations'))
      .filter((f) => /^\d+-.+\.ts$/.test(f))
      .sort();
    const listed = MIGRATIONS.map((m) => m.name);
    const expected = files.map((f) => {
      const [, timestamp, name] = /^(\d+)-(.+)\.ts$/.exec(f)!;
      return `${name}${timestamp}`;
    });
    expect(listed).toEqual(expected);
  });
});
