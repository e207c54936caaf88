import { createServer } from 'node:net';

/**
 * A port free now, for a server a test starts later. Ports come from below the kernel's ephemeral
 * range (32768+ on Linux): a port taken by `listen(0)` there can be reused at once by any outgoing
 * connection of a parallel suite, so the server then fails with EADDRINUSE. Each Jest worker draws
 * from its own block, so two workers never hand out the same port.
 */
const FIRST = 20_000;
const BLOCK = 1_000;
const BLOCKS = 12;
let next = Math.floor(Math.random() * BLOCK);

export async function freePort(): Promise<number> {
  const worker = Number(process.env.JEST_WORKER_ID ?? '1');
  const base = FIRST + ((worker - 1) % BLOCKS) * BLOCK;
  for (let tries = 0; tries < BLOCK; tries++) {
    const port = base + (next++ % BLOCK);
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port in ${base}..${base + BLOCK - 1}`);
}

/** Bound on `::` (dual stack, as the app listens) and closed again. */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}
