import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

// A module owns its tables: SQL naming a table lives in its owner, every other module or entry point
// asks the owner's front door. This scan reads every source file and names the SQL that reaches a run's
// or a thread's tables from outside their owner.
const SRC = path.resolve(__dirname, '../../../src');
const OWNERS: Record<string, string> = {
  threads: 'modules/threads/',
  runs: 'modules/agent-runtime/',
  run_events: 'modules/agent-runtime/',
  messages: 'modules/agent-runtime/',
  waiting_points: 'modules/agent-runtime/',
  thread_tool_approvals: 'modules/agent-runtime/',
  schedules: 'modules/schedules/',
  schedule_occurrences: 'modules/schedules/',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/**
 * The tables of OWNERS that SQL in `code` names (read, joined, written), schema-qualified or not. SQL
 * keywords are upper case here, which tells a statement from prose ("a core taken from runs").
 */
function tablesNamed(code: string): string[] {
  const names = Object.keys(OWNERS).join('|');
  const pattern = new RegExp(`\\b(?:FROM|JOIN|UPDATE|INTO)\\s+(?:public\\.)?(${names})\\b`, 'g');
  return [...code.matchAll(pattern)].map((match) => match[1]);
}

describe('table owners', () => {
  it('finds the tables SQL names (the scan itself can fail)', () => {
    expect(tablesNamed('`SELECT 1 FROM public.threads t WHERE t.id::text = c.thread_id`')).toEqual([
      'threads',
    ]);
    expect(tablesNamed('`FROM waiting_points w JOIN runs r ON r.id = w.run_id`')).toEqual([
      'waiting_points',
      'runs',
    ]);
    expect(tablesNamed('`UPDATE messages SET x = 1`; `INSERT INTO run_events (a) VALUES (1)`')).toEqual([
      'messages',
      'run_events',
    ]);
    expect(tablesNamed('`SELECT thread_id FROM langgraph.checkpoints`; // cores taken from runs')).toEqual(
      [],
    );
  });

  it("names a run's or a thread's tables in SQL only inside their owner", () => {
    const outside = sourceFiles(SRC).flatMap((file) => {
      const relative = path.relative(SRC, file);
      return tablesNamed(readFileSync(file, 'utf8'))
        .filter((table) => !relative.startsWith(OWNERS[table]))
        .map((table) => ({ file: relative, table }));
    });
    expect(outside).toEqual([]);
  });
});
