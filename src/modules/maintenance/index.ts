// The maintenance module's front door: what other modules may use. Everything else is internal.
export { MaintenanceModule } from './maintenance.module.js';
