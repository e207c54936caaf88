import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase } from '../support/test-database';
import { baseTestEnvironment } from '../support/test-env';
import { freePort } from '../support/free-port';
import { ServiceProcess } from '../support/service-process';

jest.setTimeout(60_000);

/**
 * Preloaded into the service (`NODE_OPTIONS=--require`): on SIGWINCH, a signal Nest's shutdown hooks
 * leave alone, it prints `loaded-modules [...]`, the files Node has loaded so far.
 */
const PROBE_SOURCE = `process.on('SIGWINCH', () => {
  process.stdout.write('loaded-modules ' + JSON.stringify(Object.keys(require.cache)) + '\\n');
});
`;
const MCP_SDK = '/node_modules/@modelcontextprotocol/sdk/';
const LANGGRAPH = '/node_modules/@langchain/langgraph/';

/** The files the process has loaded so far (its `require.cache`), read through the preloaded probe. */
async function loadedModules(service: ServiceProcess): Promise<string[]> {
  const from = service.stdout.length;
  service.child.kill('SIGWINCH');
  for (let i = 0; i < 100; i++) {
    const line = service.stdout
      .slice(from)
      .split('\n')
      .find((l) => l.startsWith('loaded-modules '));
    if (line !== undefined) return JSON.parse(line.slice('loaded-modules '.length)) as string[];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no module list:\n${service.stderr}`);
}

describe('APP_ROLE=api loads what only some requests need when they first come', () => {
  it('starts without the worker runtime or the MCP SDK, and loads the SDK at its first MCP connection', async () => {
    const probe = join(mkdtempSync(join(tmpdir(), 'yuxi-probe-')), 'loaded-modules.cjs');
    writeFileSync(probe, PROBE_SOURCE);
    const database = await createTestDatabase();
    const port = await freePort();
    const api = ServiceProcess.start('main', {
      ...baseTestEnvironment(database.name),
      APP_ROLE: 'api',
      DB_MIGRATE_ON_START: 'true',
      PORT: String(port),
      NODE_OPTIONS: `--require ${probe}`,
    });
    try {
      await api.waitHealthy(port);
      const atStart = await loadedModules(api);
      expect(atStart.some((file) => file.includes('/node_modules/@nestjs/core/'))).toBe(true);
      expect(atStart.filter((file) => file.includes(MCP_SDK))).toEqual([]);
      expect(atStart.filter((file) => file.includes(LANGGRAPH))).toEqual([]);

      // The builtin knowledge server is this process's own endpoint: testing it connects the SDK
      // client to the SDK server, both loaded on the way.
      const base = `http://127.0.0.1:${port}/api`;
      const login = await fetch(`${base}/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'root', password: 'root-password-1' }),
      });
      const { access_token: token } = (await login.json()) as { access_token: string };
      const tested = await fetch(`${base}/system/mcp-servers/knowledge/test`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      const body = (await tested.json()) as { ok: boolean; tools?: { name: string }[] };
      expect(tested.status).toBe(200);
      expect(body.ok).toBe(true);
      expect(body.tools?.map((tool) => tool.name)).toContain('query_kb');
      const afterUse = await loadedModules(api);
      expect(afterUse.some((file) => file.includes(`${MCP_SDK}dist/cjs/client/`))).toBe(true);
      expect(afterUse.some((file) => file.includes(`${MCP_SDK}dist/cjs/server/`))).toBe(true);
      // One copy: the CommonJS build the types describe, never the ES build beside it.
      expect(afterUse.filter((file) => file.includes(`${MCP_SDK}dist/esm/`))).toEqual([]);
    } finally {
      api.kill();
      await database.drop();
    }
  });
});
