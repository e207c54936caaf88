import {
  PendingCheckpointWrites,
  type MergedWrites,
  type WriteRow,
  type WritesTarget,
} from '../../../src/modules/agent-runtime/graph/pending-checkpoint-writes';

const target: WritesTarget = { threadId: 't', namespace: '', checkpointId: 'c1' };
const row = (taskId: string, idx: number, value: string): WriteRow => ({
  taskId,
  idx,
  channel: idx < 0 ? '__error__' : 'messages',
  type: 'json',
  blob: Buffer.from(value),
});
const values = (rows: WriteRow[]) => rows.map((r) => `${r.taskId}/${r.idx}=${r.blob!.toString()}`);
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('PendingCheckpointWrites', () => {
  let alone: { target: WritesTarget; writes: MergedWrites }[];
  let pending: PendingCheckpointWrites;
  let failAlone: Error | null;

  beforeEach(() => {
    alone = [];
    failAlone = null;
    pending = new PendingCheckpointWrites((to, writes) => {
      alone.push({ target: to, writes });
      return failAlone === null ? Promise.resolve() : Promise.reject(failAlone);
    });
  });

  it('hands the rows to the next checkpoint and resolves them with its statement', async () => {
    let settled = false;
    const saved = pending.add(target, [row('a', 0, 'x'), row('a', 1, 'y')], false).then(() => {
      settled = true;
    });
    const taken = pending.take(target)!;
    expect(values(taken.writes.inserts)).toEqual(['a/0=x', 'a/1=y']);
    expect(taken.writes.upserts).toEqual([]);
    await nextTurn();
    expect(settled).toBe(false);
    taken.settle();
    await saved;
    expect(pending.take(target)).toBeNull();
    await nextTurn();
    expect(alone).toEqual([]);
  });

  it('merges batches as if stored one after the other: an upsert replaces, an insert keeps', () => {
    void pending.add(target, [row('a', 0, 'first'), row('a', -1, 'kept-insert')], false);
    void pending.add(target, [row('a', 0, 'ignored')], false);
    void pending.add(target, [row('a', -1, 'upserted'), row('b', -1, 'one')], true);
    void pending.add(target, [row('b', -1, 'two')], true);
    void pending.add(target, [row('b', -1, 'late-insert')], false);
    const { writes } = pending.take(target)!;
    expect(values(writes.inserts)).toEqual(['a/0=first']);
    expect(values(writes.upserts)).toEqual(['a/-1=upserted', 'b/-1=two']);
  });

  it('stores writes alone when no checkpoint takes them by the next turn, and rejects them with its error', async () => {
    const first = pending.add(target, [row('a', 0, 'x')], false);
    await first;
    expect(alone).toHaveLength(1);
    expect(alone[0].target).toEqual(target);
    failAlone = new Error('database down');
    await expect(pending.add({ ...target, checkpointId: 'c2' }, [row('a', 0, 'y')], false)).rejects.toThrow(
      'database down',
    );
  });

  it("waits for the end of a checkpoint of the same thread before storing alone, not another thread's", async () => {
    const endPut = pending.beginPut(target);
    void pending.add(target, [row('a', 0, 'x')], false);
    void pending.add({ ...target, threadId: 'other' }, [row('a', 0, 'y')], false);
    await nextTurn();
    await nextTurn();
    expect(alone.map((entry) => entry.target.threadId)).toEqual(['other']);
    endPut();
    await nextTurn();
    expect(alone.map((entry) => entry.target.threadId)).toEqual(['other', 't']);
  });

  it('rejects the waiters of taken rows with the error of the statement that carried them', async () => {
    const saved = pending.add(target, [row('a', 0, 'x')], false);
    pending.take(target)!.settle(new Error('put failed'));
    await expect(saved).rejects.toThrow('put failed');
  });
});
