export { burstCase, type BurstFigures } from './burst.js';
export { cpuCase, type CpuFigures } from './cpu.js';
export { CAPACITY_CASES, capacityKnobs, type CapacityCase } from './knobs.js';
export type { Pct } from './measure.js';
export { openLoopCase, type OpenLoopFigures } from './open-loop.js';
export { sequentialCase, type SequentialCapacityFigures } from './sequential.js';
export { sseCase, type SseFigures } from './sse.js';
