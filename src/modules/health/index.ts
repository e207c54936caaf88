// The health module's front door: what other modules may use. Everything else is internal.
export { HealthModule, WorkerHealthModule } from './health.module.js';
