import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

// A run's status has one owner (docs/architecture.md "A run's life"): every statement that writes
// `runs`, `run_events` or `messages` is in `runs/run-sql.ts` (run by `RunStore`, applied by
// `RunTransitions` from the state machine's table). This scan reads every source file and names the
// ones that write them anywhere else.
const SRC = path.resolve(__dirname, '../../../src');
const OWNER = 'modules/agent-runtime/runs/run-sql.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** What in `code` writes a run's status: SQL on `runs`, or a TypeORM write of a `RunEntity`. */
function statusWrites(code: string): string[] {
  const found: string[] = [];
  // The SET list of an UPDATE on runs (up to its WHERE/RETURNING or the end of the literal).
  for (const match of code.matchAll(
    /UPDATE\s+runs\b(?:\s+\w+)?\s+SET\b([\s\S]*?)(?:\bWHERE\b|\bRETURNING\b|`)/gi,
  ))
    if (/(^|[\s,(])status\s*=/i.test(match[1])) found.push(match[0].replace(/\s+/g, ' ').slice(0, 60));
  for (const match of code.matchAll(/INSERT\s+INTO\s+runs\b/gi)) found.push(match[0]);
  // TypeORM: a repository of RunEntity used to insert, update, save or upsert rows.
  for (const match of code.matchAll(
    /getRepository\(\s*RunEntity\s*\)\s*\.\s*(insert|update|save|upsert)\s*\(/g,
  ))
    found.push(match[0]);
  for (const match of code.matchAll(/Repository<RunEntity>/g)) {
    const field = /(\w+)\s*:\s*Repository<RunEntity>/.exec(
      code.slice(Math.max(0, match.index - 80), match.index + 30),
    );
    if (
      field !== null &&
      new RegExp(`this\\.${field[1]}\\s*\\.\\s*(insert|update|save|upsert)\\s*\\(`).test(code)
    )
      found.push(`${field[1]}.write`);
  }
  return found;
}

describe('run status ownership', () => {
  it('finds status writes in SQL and TypeORM (the scan itself can fail)', () => {
    expect(statusWrites("query(`UPDATE runs SET status = 'queued' WHERE id = $1`)")).toHaveLength(1);
    expect(statusWrites("query(`UPDATE runs r SET lease_token = $2, status = 'running'`)")).toHaveLength(1);
    expect(
      statusWrites('query(`UPDATE runs SET last_event_seq = last_event_seq + 1 WHERE status = $1`)'),
    ).toEqual([]);
    expect(statusWrites('manager.getRepository(RunEntity).insert({ status })')).toHaveLength(1);
    expect(statusWrites('query(`INSERT INTO runs (id, status) VALUES ($1, $2)`)')).toHaveLength(1);
    expect(
      statusWrites(
        'constructor(private readonly rows: Repository<RunEntity>) {} f() { this.rows.update(x, y) }',
      ),
    ).toHaveLength(1);
  });

  it('writes runs.status only in the run statements', () => {
    const outside = sourceFiles(SRC)
      .map((file) => ({ file: path.relative(SRC, file), writes: statusWrites(readFileSync(file, 'utf8')) }))
      .filter(({ file, writes }) => file !== OWNER && writes.length > 0);
    expect(outside).toEqual([]);
  });

  it.each(['runs', 'run_events', 'messages'])('writes %s in one file, the run statements', (table) => {
    const write = new RegExp(
      `(UPDATE +${table}\\b|INSERT +INTO +${table}\\b|DELETE +FROM +${table}\\b)`,
      'i',
    );
    const writers = sourceFiles(SRC)
      .filter((file) => write.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(SRC, file));
    expect(writers).toEqual([OWNER]);
  });
});
