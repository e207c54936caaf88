// The sandbox module's front door: what other modules may use. Everything else is internal.
export { SandboxModule } from './sandbox.module.js';
