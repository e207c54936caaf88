import type { AppConfig } from './config/app-config.js';
import { createHttpApp } from './bootstrap/create-http-app.js';
import { runEntrypoint } from './bootstrap/run-entrypoint.js';
import { startWorker } from './worker.js';

/** The API process; `APP_ROLE=worker` makes it a worker, `all` (default) runs both roles in one process. */
async function start(config: AppConfig) {
  if (config.role === 'worker') return startWorker(config);
  const app = await createHttpApp(config);
  await app.listen(config.http.port);
  return app;
}

if (require.main === module) runEntrypoint(start);
