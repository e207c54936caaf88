import type { Redis } from 'ioredis';

/** Closes a connection politely (QUIT), or drops it when Redis cannot answer. */
export async function quitRedis(client: Redis): Promise<void> {
  await client.quit().then(
    () => undefined,
    () => client.disconnect(),
  );
}
