import { ADMIN_PASSWORD, ADMIN_USERNAME } from './support/bench-env.js';
import { createBenchDatabase, startApp, type BenchContext } from './support/bench-context.js';
import { freePort } from './support/free-port.js';
import { httpJson } from './support/http.js';
import { measureLoad, type LoadFigures } from './support/load.js';
import { ServerProcess } from './support/server-process.js';

export interface ThroughputFigures {
  hello: LoadFigures;
  meWithJwt: LoadFigures;
  meWithApiKey: LoadFigures;
  /** Each auth route's req/s divided by the bare Nest hello route's. */
  ratioToHello: { meWithJwt: number; meWithApiKey: number };
}

/** The baseline: bench/hello/hello-main.ts in its own process. */
async function measureHello(context: BenchContext): Promise<LoadFigures> {
  const port = await freePort();
  const { server } = await ServerProcess.start({
    label: 'hello server',
    script: context.helloScript,
    port,
    env: { PORT: String(port), NODE_ENV: 'production' },
    cwd: context.workDir,
    healthPath: '/hello',
  });
  try {
    context.progress('load: GET /hello (2 s warm-up + 10 s)');
    return await measureLoad('GET /hello', `${server.baseUrl}/hello`);
  } finally {
    await server.stop();
  }
}

/** Logs the superadmin in, creates an API key, checks both credentials once, then loads `/api/auth/me`. */
async function measureAuth(
  context: BenchContext,
): Promise<Pick<ThroughputFigures, 'meWithJwt' | 'meWithApiKey'>> {
  const database = await createBenchDatabase();
  const { server } = await startApp(context, database, 'app server (throughput)');
  try {
    const base = server.baseUrl;
    const { access_token: jwt } = await httpJson<{ access_token: string }>(`${base}/api/auth/token`, {
      method: 'POST',
      body: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
      expectStatus: 200,
    });
    const { key: apiKey } = await httpJson<{ key: string }>(`${base}/api/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}` },
      body: { name: 'bench' },
      expectStatus: 201,
    });
    const credentials = { meWithJwt: jwt, meWithApiKey: apiKey };
    for (const [label, credential] of Object.entries(credentials)) {
      const me = await httpJson<{ username: string }>(`${base}/api/auth/me`, {
        headers: { authorization: `Bearer ${credential}` },
        expectStatus: 200,
      });
      if (me.username !== ADMIN_USERNAME)
        throw new Error(`${label}: /api/auth/me answered ${JSON.stringify(me)}`);
    }
    context.progress('load: GET /api/auth/me with a JWT (2 s warm-up + 10 s)');
    const meWithJwt = await measureLoad('GET /api/auth/me (JWT)', `${base}/api/auth/me`, {
      authorization: `Bearer ${jwt}`,
    });
    context.progress('load: GET /api/auth/me with an API key (2 s warm-up + 10 s)');
    const meWithApiKey = await measureLoad('GET /api/auth/me (API key)', `${base}/api/auth/me`, {
      authorization: `Bearer ${apiKey}`,
    });
    return { meWithJwt, meWithApiKey };
  } catch (error) {
    // The server's own output usually says why a request failed.
    const output = server.capturedOutput.trim();
    if (output !== '' && error instanceof Error)
      error.message += `\n----- app output -----\n${output}\n-----`;
    throw error;
  } finally {
    await server.stop().catch(() => server.kill());
    await database.drop();
  }
}

/** One server process at a time: the hello baseline first, then the app. */
export async function runThroughputBench(context: BenchContext): Promise<ThroughputFigures> {
  const hello = await measureHello(context);
  const { meWithJwt, meWithApiKey } = await measureAuth(context);
  return {
    hello,
    meWithJwt,
    meWithApiKey,
    ratioToHello: {
      meWithJwt: meWithJwt.requestsPerSecond / hello.requestsPerSecond,
      meWithApiKey: meWithApiKey.requestsPerSecond / hello.requestsPerSecond,
    },
  };
}
