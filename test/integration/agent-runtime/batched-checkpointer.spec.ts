import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import {
  Annotation,
  Command,
  END,
  interrupt,
  messagesStateReducer,
  START,
  StateGraph,
  type BaseCheckpointSaver,
} from '@langchain/langgraph';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import pg from 'pg';
import { BatchedPostgresSaver } from '../../../src/modules/agent-runtime/graph/batched-postgres-saver';
import type { CheckpointCompanion } from '../../../src/modules/agent-runtime/graph/checkpoint-companion';
import { createTestDatabase } from '../../support/test-database';
import { databaseUrl } from '../../support/test-env';

const State = Annotation.Root({
  messages: Annotation<BaseMessage[]>({ reducer: messagesStateReducer, default: () => [] }),
  sides: Annotation<string[]>({ reducer: (a, b) => [...a, ...b], default: () => [] }),
});

/** Two nodes in one step (several writes per step), an interrupt, and a node failing once. */
function graphOn(saver: BaseCheckpointSaver) {
  let failed = false;
  return new StateGraph(State)
    .addNode('left', () => ({ sides: ['left'] }))
    .addNode('right', () => ({
      sides: ['right'],
      messages: [new AIMessage({ id: 'm-right', content: 'r' })],
    }))
    .addNode('ask', () => {
      const answer = interrupt<{ question: string }, string>({ question: 'go on?' });
      return { messages: [new AIMessage({ id: 'm-answer', content: answer })] };
    })
    .addNode('flaky', () => {
      if (!failed) {
        failed = true;
        throw new Error('first try fails');
      }
      return { messages: [new AIMessage({ id: 'm-done', content: 'done' })] };
    })
    .addEdge(START, 'left')
    .addEdge(START, 'right')
    .addEdge(['left', 'right'], 'ask')
    .addEdge('ask', 'flaky')
    .addEdge('flaky', END)
    .compile({ checkpointer: saver });
}

describe('BatchedPostgresSaver', () => {
  let pool: pg.Pool;
  let drop: () => Promise<void>;
  let databaseName: string;
  const savers: Record<'library' | 'batched', BaseCheckpointSaver> = {} as never;

  beforeAll(async () => {
    const database = await createTestDatabase();
    drop = database.drop;
    databaseName = database.name;
    pool = new pg.Pool({ connectionString: databaseUrl(database.name), max: 4 });
    // `pool.end()` resolves before its clients' connections have closed, so the DROP … WITH (FORCE)
    // after it may terminate one: that late error must not surface as an unhandled one (seen in CI).
    pool.on('connect', (client) => client.on('error', () => undefined));
    pool.on('error', () => undefined); // an idle client's error is re-emitted by the pool
    for (const schema of ['lg_library', 'lg_batched']) await pool.query(`CREATE SCHEMA ${schema}`);
    savers.library = new PostgresSaver(pool, undefined, { schema: 'lg_library' });
    savers.batched = new BatchedPostgresSaver(pool, 'lg_batched');
    await (savers.library as PostgresSaver).setup();
    await (savers.batched as PostgresSaver).setup();
  });

  afterAll(async () => {
    await pool.end();
    await drop();
  });

  /**
   * What a schema holds for the thread, without the time-based checkpoint and task ids (blobs of the
   * special channels, `__interrupt__` for one, carry ids made from them: only their size is compared).
   */
  const blob = (column: string, channel: string) =>
    `CASE WHEN ${channel} LIKE '\\_\\_%' THEN length(${column})::text ELSE encode(${column}, 'hex') END AS blob`;
  const rowsOf = async (schema: string) => {
    const q = async (sql: string) => (await pool.query<Record<string, unknown>>(sql)).rows;
    return {
      checkpoints: await q(
        `SELECT checkpoint_ns, checkpoint->'channel_versions' AS versions, metadata->>'step' AS step,
                metadata->>'source' AS source, parent_checkpoint_id IS NULL AS root
           FROM ${schema}.checkpoints ORDER BY checkpoint_id`,
      ),
      blobs: await q(
        `SELECT checkpoint_ns, channel, version, type, ${blob('blob', 'channel')} FROM ${schema}.checkpoint_blobs
          ORDER BY channel, version`,
      ),
      writes: await q(
        `SELECT w.checkpoint_ns, w.idx, w.channel, w.type, ${blob('w.blob', 'w.channel')}
           FROM ${schema}.checkpoint_writes w JOIN ${schema}.checkpoints c USING (thread_id, checkpoint_id)
          ORDER BY c.checkpoint_id, w.channel, w.idx, w.type, length(w.blob)`,
      ),
    };
  };

  it('stores the same rows as the library saver and reads back the same state, interrupts and errors', async () => {
    const config = { configurable: { thread_id: 'thread-1' } };
    const states: Record<string, unknown[]> = { library: [], batched: [] };
    for (const name of ['library', 'batched'] as const) {
      const graph = graphOn(savers[name]);
      await graph.invoke({ messages: [new HumanMessage({ id: 'm-user', content: 'hi' })] }, config);
      const waiting = await graph.getState(config);
      await expect(graph.invoke(new Command({ resume: 'yes' }), config)).rejects.toThrow('first try fails');
      const failedState = await graph.getState(config);
      await graph.invoke(null, config);
      const done = await graph.getState(config);
      const history = [];
      for await (const snapshot of graph.getStateHistory(config)) history.push(snapshot.next);
      states[name] = [
        waiting.next,
        waiting.tasks.map((task) => task.interrupts.map((i) => i.value as unknown)),
        failedState.next,
        failedState.tasks.map((task) => task.error !== undefined),
        done.next,
        done.values,
        history,
      ];
    }
    expect(states.batched).toEqual(states.library);
    expect((states.batched[3] as boolean[]).some(Boolean)).toBe(true);
    expect(await rowsOf('lg_batched')).toEqual(await rowsOf('lg_library'));
  });

  it("with sync durability stores a step's task writes in the statement of the checkpoint after it", async () => {
    const loop = (saver: BaseCheckpointSaver) =>
      new StateGraph(State)
        .addNode('first', () => ({ messages: [new AIMessage({ id: 'm-1', content: 'one' })] }))
        .addNode('second', () => ({ sides: ['second'] }))
        .addEdge(START, 'first')
        .addEdge('first', 'second')
        .addEdge('second', END)
        .compile({ checkpointer: saver });
    const statements: string[] = [];
    const counted = new pg.Pool({ connectionString: databaseUrl(databaseName), max: 2 });
    counted.on('connect', (client) => client.on('error', () => undefined));
    counted.on('error', () => undefined); // an idle client's error is re-emitted by the pool
    const query = counted.query.bind(counted) as (...args: unknown[]) => Promise<unknown>;
    (counted as unknown as { query: typeof query }).query = (...args: unknown[]) => {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text;
      statements.push(text.trimStart().split(/\s+/, 2).join(' '));
      return query(...args);
    };
    try {
      await pool.query('CREATE SCHEMA lg_sync_library; CREATE SCHEMA lg_sync_batched');
      const library = new PostgresSaver(pool, undefined, { schema: 'lg_sync_library' });
      const batched = new BatchedPostgresSaver(counted, 'lg_sync_batched');
      await library.setup();
      await batched.setup();
      statements.length = 0;
      const config = { configurable: { thread_id: 'thread-sync' }, durability: 'sync' as const };
      const input = { messages: [new HumanMessage({ id: 'm-user', content: 'hi' })] };
      await loop(library).invoke(input, config);
      await loop(batched).invoke(input, config);
      const rows = await rowsOf('lg_sync_batched');
      expect(rows).toEqual(await rowsOf('lg_sync_library'));
      // Four checkpoints (input, start, first, second), the writes of three tasks: each task's writes
      // went out with the checkpoint after its step, none alone.
      expect(rows.checkpoints).toHaveLength(4);
      expect(new Set(rows.writes.map((write) => write.channel))).toEqual(
        new Set(['messages', 'sides', 'branch:to:first', 'branch:to:second']),
      );
      expect(statements.filter((statement) => !statement.startsWith('select'))).toEqual(
        Array(4).fill('WITH blobs'),
      );
    } finally {
      await counted.end();
    }
  });

  describe('a companion of the next checkpoint', () => {
    const notes: string[][] = [];
    /** Logs `note` in the checkpoint's statement when `held`; the checkpoint is written only then. */
    const companion = (note: string, held: boolean): CheckpointCompanion => ({
      render: (param) => ({
        ctes: `companion_log AS (
            INSERT INTO companion_log (note) SELECT ${param(note)} WHERE ${param(held)}::boolean RETURNING note
          )`,
        holds: 'EXISTS (SELECT 1 FROM companion_log)',
        rows: 'SELECT note FROM companion_log',
      }),
      settle: (rows) => {
        if (rows.length === 0) throw new Error(`not held: ${note}`);
        notes.push((rows as { note: string }[]).map((row) => row.note));
      },
      storeAlone: async () => {
        await pool.query(`INSERT INTO companion_log (note) VALUES ($1)`, [`${note} (alone)`]);
      },
    });
    const logged = async () =>
      (await pool.query<{ note: string }>(`SELECT note FROM companion_log ORDER BY id`)).rows.map(
        (r) => r.note,
      );
    const checkpointsOf = async (threadId: string) =>
      (
        await pool.query<{ step: string }>(
          `SELECT metadata->>'step' AS step FROM lg_companion.checkpoints WHERE thread_id = $1
            ORDER BY checkpoint_id`,
          [threadId],
        )
      ).rows.map((row) => Number(row.step));
    let statements: string[];
    let saver: BatchedPostgresSaver;
    let counted: pg.Pool;

    beforeAll(async () => {
      await pool.query('CREATE SCHEMA lg_companion; CREATE TABLE companion_log (id serial, note text)');
      statements = [];
      counted = new pg.Pool({ connectionString: databaseUrl(databaseName), max: 2 });
      counted.on('connect', (client) => client.on('error', () => undefined));
      counted.on('error', () => undefined);
      const query = counted.query.bind(counted) as (...args: unknown[]) => Promise<unknown>;
      (counted as unknown as { query: typeof query }).query = (...args: unknown[]) => {
        const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text;
        statements.push(text.trimStart().split(/\s+/, 2).join(' '));
        return query(...args);
      };
      saver = new BatchedPostgresSaver(counted, 'lg_companion');
      await saver.setup();
    });
    afterAll(() => counted.end());
    beforeEach(async () => {
      statements.length = 0;
      notes.length = 0;
      await pool.query('TRUNCATE companion_log');
    });

    /** `first` attaches a companion (held or not) for the checkpoint after its step. */
    const graphWith = (held: boolean) =>
      new StateGraph(State)
        .addNode('first', (_state, config) => {
          const threadId = String(config.configurable?.thread_id);
          expect(saver.attach(threadId, companion(`after first, ${threadId}`, held))).toBe(true);
          return { messages: [new AIMessage({ id: 'm-1', content: 'one' })] };
        })
        .addNode('second', () => ({ sides: ['second'] }))
        .addEdge(START, 'first')
        .addEdge('first', 'second')
        .addEdge('second', END)
        .compile({ checkpointer: saver });
    const input = { messages: [new HumanMessage({ id: 'm-user', content: 'hi' })] };

    it('goes out in the statement of the checkpoint after its step, with no statement of its own', async () => {
      await graphWith(true).invoke(input, { configurable: { thread_id: 'held' }, durability: 'sync' });
      expect(await logged()).toEqual(['after first, held']);
      expect(notes).toEqual([['after first, held']]);
      // Input, start, first (with the companion), second: four statements in all.
      expect(await checkpointsOf('held')).toEqual([-1, 0, 1, 2]);
      expect(statements.filter((statement) => !statement.startsWith('select'))).toEqual([
        'WITH blobs',
        'WITH blobs',
        'WITH companion_log',
        'WITH blobs',
      ]);
    });

    it('leaves the checkpoint unwritten when its condition does not hold, and fails the run with its error', async () => {
      const config = { configurable: { thread_id: 'refused' }, durability: 'sync' as const };
      await expect(graphWith(false).invoke(input, config)).rejects.toThrow('not held: after first, refused');
      expect(await logged()).toEqual([]);
      // The checkpoint of `first`'s step (and its task writes, its blobs) was not written: the thread
      // stays at the step before, as if the step had not run.
      expect(await checkpointsOf('refused')).toEqual([-1, 0]);
      const state = await graphWith(true).getState(config);
      expect(state.next).toEqual(['first']);
      expect(state.values).toEqual({ messages: [expect.objectContaining({ content: 'hi' })], sides: [] });
    });

    it('is stored alone when no checkpoint takes it, and one waits per thread', async () => {
      expect(saver.attach('detached', companion('orphan', true))).toBe(true);
      expect(saver.attach('detached', companion('second one', true))).toBe(false);
      await saver.storeDetached('detached');
      await saver.storeDetached('detached'); // nothing left
      expect(await logged()).toEqual(['orphan (alone)']);
      expect(await checkpointsOf('detached')).toEqual([]);
    });
  });
});
