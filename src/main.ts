import type { AppConfig } from './config/app-config.js';
import { runEntrypoint } from './bootstrap/run-entrypoint.js';

/**
 * The API process; `APP_ROLE=worker` makes it a worker, `all` (default) runs both roles in one process.
 * Each role loads only its own code (a worker has no API routes, an API process no worker).
 */
async function start(config: AppConfig) {
  if (config.role === 'worker') return (await import('./worker.js')).startWorker(config);
  const { createHttpApp } = await import('./bootstrap/create-http-app.js');
  const app = await createHttpApp(config);
  await app.listen(config.http.port);
  return app;
}

if (require.main === module) runEntrypoint(start);
