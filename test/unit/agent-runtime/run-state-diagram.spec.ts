import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  endingTransitions,
  RUN_STATE_MACHINE,
  stateDiagram,
  TRANSITION_NAMES,
} from '../../../src/modules/agent-runtime/runs/run-state-machine';
import { RUN_STATUSES, TERMINAL_STATUSES } from '../../../src/modules/agent-runtime/runs/run-status';

const ARCHITECTURE = path.resolve(__dirname, '../../../docs/architecture.md');

describe('the run state machine table', () => {
  it('is drawn in docs/architecture.md as it is in the code', () => {
    expect(readFileSync(ARCHITECTURE, 'utf8')).toContain('```mermaid\n' + stateDiagram() + '\n```');
  });

  it('names only run statuses, reaches every status, and nothing leaves a terminal status', () => {
    for (const name of TRANSITION_NAMES) {
      const { from, to } = RUN_STATE_MACHINE[name];
      expect(RUN_STATUSES).toContain(to);
      for (const status of from) {
        expect(RUN_STATUSES).toContain(status);
        expect(TERMINAL_STATUSES).not.toContain(status);
      }
    }
    const reached = new Set(TRANSITION_NAMES.map((name) => RUN_STATE_MACHINE[name].to));
    expect(RUN_STATUSES.filter((status) => !reached.has(status))).toEqual([]);
  });

  it('ends a run only through transitions that tell its parent and cancel its children', () => {
    for (const name of endingTransitions()) {
      expect(RUN_STATE_MACHINE[name].after).toEqual(
        expect.arrayContaining(['publish', 'dispatch_parent', 'dispatch_thread_head', 'cancel_children']),
      );
      expect(RUN_STATE_MACHINE[name].events).toEqual(['error?', 'status', 'done']);
    }
  });
});
