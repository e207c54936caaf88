import { QueryFailedError } from 'typeorm';
import { toDomainError } from '../../../src/common/errors/to-domain-error';
import { isTransientConflict, retryOnConflict } from '../../../src/database/transient-conflict';

const pgError = (code: string) =>
  new QueryFailedError('UPDATE runs …', [], Object.assign(new Error('deadlock detected'), { code }));

describe('transient PostgreSQL conflicts (40P01, 40001)', () => {
  it('are recognized, on TypeORM errors and on raw driver errors, and nothing else is', () => {
    expect(isTransientConflict(pgError('40P01'))).toBe(true);
    expect(isTransientConflict(pgError('40001'))).toBe(true);
    expect(isTransientConflict(Object.assign(new Error('x'), { code: '40P01' }))).toBe(true);
    expect(isTransientConflict(pgError('23505'))).toBe(false);
    expect(isTransientConflict(null)).toBe(false);
  });

  it('run the whole transaction again, a bounded number of times, then give up with the conflict', async () => {
    let calls = 0;
    const flaky = () => (++calls < 3 ? Promise.reject(pgError('40P01')) : Promise.resolve('done'));
    await expect(retryOnConflict(flaky)).resolves.toBe('done');
    expect(calls).toBe(3);

    calls = 0;
    const stuck = () => {
      calls++;
      return Promise.reject(pgError('40001'));
    };
    await expect(retryOnConflict(stuck)).rejects.toBeInstanceOf(QueryFailedError);
    expect(calls).toBe(3);

    calls = 0;
    const other = () => {
      calls++;
      return Promise.reject(pgError('23505'));
    };
    await expect(retryOnConflict(other)).rejects.toBeInstanceOf(QueryFailedError);
    expect(calls).toBe(1);
  });

  it('reach a client as 409 common.concurrent_update, never a 500', () => {
    for (const code of ['40P01', '40001']) {
      const error = toDomainError(pgError(code));
      expect({ kind: error.kind, code: error.code }).toEqual({
        kind: 'conflict',
        code: 'common.concurrent_update',
      });
    }
  });
});
