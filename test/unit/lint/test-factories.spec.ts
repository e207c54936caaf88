import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const SUPPORT = path.resolve(__dirname, '../../support');

/**
 * Helpers of test/support allowed a factory-like name besides TestContext's `new*` methods:
 * `newThread` is a thin wrapper over `ctx.newThread` kept for the run specs that import it;
 * `insertFile` writes an indexed knowledge file's rows, a state the API reaches only through the
 * indexing worker.
 */
const ALLOWED = new Set(['newThread', 'insertFile']);

const factoryLike = /^export (?:async )?(?:function|const) ((?:new|insert)[A-Z]\w*)/gm;

describe('test factories', () => {
  const files = readdirSync(SUPPORT, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));

  it('make each thing in one place: the new* methods of TestContext', () => {
    const elsewhere = files.flatMap((file) =>
      [...readFileSync(path.join(SUPPORT, file), 'utf8').matchAll(factoryLike)]
        .map((match) => match[1])
        .filter((name) => !ALLOWED.has(name))
        .map((name) => `${file}: ${name}`),
    );
    expect(elsewhere).toEqual([]);
  });

  it('keeps newThread a wrapper over ctx.newThread', () => {
    const helpers = readFileSync(path.join(SUPPORT, 'runs/run-helpers.ts'), 'utf8');
    expect(helpers).toMatch(/export const newThread = [^;]*ctx\.newThread\(user, agentSlug\);/);
  });
});
