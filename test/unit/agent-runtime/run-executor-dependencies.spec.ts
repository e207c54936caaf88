import 'reflect-metadata';
import { RunExecutor } from '../../../src/modules/agent-runtime/worker/run-executor';

// RunExecutor claims a run, keeps its lease and hands the rest to classes with one job each (graph
// execution, recording the ending). A seventh dependency means a job is moving back into it.
const MAX_DEPENDENCIES = 6;

describe('RunExecutor dependencies', () => {
  it(`injects at most ${MAX_DEPENDENCIES} dependencies, each a known provider`, () => {
    const dependencies = Reflect.getMetadata('design:paramtypes', RunExecutor) as unknown[];

    expect(dependencies.length).toBeGreaterThan(0);
    expect(dependencies.length).toBeLessThanOrEqual(MAX_DEPENDENCIES);
    expect(dependencies.every((type) => typeof type === 'function')).toBe(true);
  });
});
