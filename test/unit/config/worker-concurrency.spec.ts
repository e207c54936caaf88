import { derivedWorkerConcurrency } from '../../../src/config/worker-concurrency';

const MiB = 1024 * 1024;

describe('the default RUN_WORKER_CONCURRENCY', () => {
  it('gives runs half the heap at 4 MiB each, between 10 and 500', () => {
    expect(derivedWorkerConcurrency(512 * MiB)).toBe(64);
    expect(derivedWorkerConcurrency(2048 * MiB)).toBe(256);
    expect(derivedWorkerConcurrency(4144 * MiB)).toBe(500);
    expect(derivedWorkerConcurrency(16 * 1024 * MiB)).toBe(500);
    expect(derivedWorkerConcurrency(40 * MiB)).toBe(10);
  });
});
