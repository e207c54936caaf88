import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { createBenchDatabase, startApp, type BenchContext } from './support/bench-context.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME, databaseUrl } from './support/bench-env.js';
import { httpJson } from './support/http.js';
import { generateCorpus, type LabelledQuery } from './support/knowledge-corpus.js';
import { percentile } from './support/stats.js';

export interface KnowledgeFigures {
  files: number;
  chunks: number;
  indexSeconds: number;
  chunksPerSecond: number;
  labelled: number;
  recallAt5: { all: number; en: number; zh: number };
  /** Right after indexing: the new postings are not yet vacuumed (no index-only scans yet). */
  fresh: Latency;
  /** After `VACUUM (ANALYZE)` of the knowledge tables, what autovacuum does soon after a bulk insert. */
  settled: Latency;
  /** The 1-minute load average when indexing started and when the queries ended (2 cores here). */
  loadAverage: { start: number; end: number };
}

interface Latency {
  queries: number;
  p50Ms: number;
  p99Ms: number;
  byLanguage: { en: { p50Ms: number; p99Ms: number }; zh: { p50Ms: number; p99Ms: number } };
}

const FILES = 50;
const SECTIONS_PER_FILE = 200;
const QUERIES_PER_LANGUAGE = 100;
const SETTLED_ROUNDS = 2;
const UPLOAD_CONCURRENCY = 4;

interface FileRow {
  file_id: string;
  status: string;
  chunk_count: number | null;
  error: unknown;
}

/**
 * Knowledge retrieval (`npm run bench:knowledge`, a real server as a child process): 50 generated
 * Markdown files (English and Chinese) of 200 sections, 10,000 chunks, uploaded over HTTP and indexed by
 * the queue job (parse, chunk, segment, write): wall time from the first upload to the last file
 * `indexed`. Then 200 labelled queries (one rare term and two common words of the target section)
 * through `POST /api/knowledge-bases/:kb_id/query` (sequential, one connection per request, lexical: no
 * embeddings model): recall@5 and p50/p99 right after indexing, then p50/p99 over 2 more rounds after
 * `VACUUM (ANALYZE)` (the state autovacuum reaches soon after a bulk insert: index-only scans).
 */
export async function runKnowledgeBench(context: BenchContext): Promise<KnowledgeFigures> {
  const database = await createBenchDatabase();
  const { server } = await startApp(context, database, 'app server (knowledge)');
  try {
    const base = server.baseUrl;
    const { access_token: token } = await httpJson<{ access_token: string }>(`${base}/api/auth/token`, {
      method: 'POST',
      body: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
      expectStatus: 200,
    });
    const headers = { authorization: `Bearer ${token}` };
    const { kb_id: kbId } = await httpJson<{ kb_id: string }>(`${base}/api/knowledge-bases`, {
      method: 'POST',
      headers,
      body: { name: 'Bench corpus' },
      expectStatus: 201,
    });
    const corpus = generateCorpus({
      files: FILES,
      sectionsPerFile: SECTIONS_PER_FILE,
      queriesPerLanguage: QUERIES_PER_LANGUAGE,
    });

    context.progress(`knowledge: uploading ${FILES} files (${corpus.sections} sections) and indexing them`);
    const loadAtStart = loadavg()[0];
    const started = performance.now();
    const pending = [...corpus.files];
    const uploaders = Array.from({ length: UPLOAD_CONCURRENCY }, async () => {
      for (let file = pending.shift(); file !== undefined; file = pending.shift()) {
        const form = new FormData();
        form.append('file', new Blob([file.content], { type: 'text/markdown' }), file.filename);
        const res = await fetch(`${base}/api/knowledge-bases/${kbId}/files`, {
          method: 'POST',
          headers,
          body: form,
        });
        if (res.status !== 201)
          throw new Error(`upload of ${file.filename}: ${res.status} ${await res.text()}`);
      }
    });
    await Promise.all(uploaders);
    let files: FileRow[] = [];
    for (;;) {
      ({ items: files } = await httpJson<{ items: FileRow[] }>(
        `${base}/api/knowledge-bases/${kbId}/files?limit=200`,
        { headers, expectStatus: 200 },
      ));
      const failed = files.find((file) => file.status === 'failed');
      if (failed !== undefined) throw new Error(`indexing failed: ${JSON.stringify(failed.error)}`);
      if (files.length === FILES && files.every((file) => file.status === 'indexed')) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const indexSeconds = (performance.now() - started) / 1000;
    const chunks = files.reduce((sum, file) => sum + (file.chunk_count ?? 0), 0);

    type Answer = { filename: string; chunk_index: number }[];
    const ask = async (query: LabelledQuery) => {
      const t = performance.now();
      const { items } = await httpJson<{ items: Answer }>(`${base}/api/knowledge-bases/${kbId}/query`, {
        method: 'POST',
        headers,
        body: { query: query.query, top_k: 5 },
        expectStatus: 200,
      });
      return { ms: performance.now() - t, items };
    };
    const measure = async (rounds: number, onAnswer?: (query: LabelledQuery, items: Answer) => void) => {
      const samples: Record<'en' | 'zh', number[]> = { en: [], zh: [] };
      for (let round = 0; round < rounds; round++) {
        for (const query of corpus.queries) {
          const { ms, items } = await ask(query);
          samples[query.language].push(ms);
          if (round === 0) onAnswer?.(query, items);
        }
      }
      const all = [...samples.en, ...samples.zh];
      return {
        queries: all.length,
        p50Ms: percentile(all, 50),
        p99Ms: percentile(all, 99),
        byLanguage: {
          en: { p50Ms: percentile(samples.en, 50), p99Ms: percentile(samples.en, 99) },
          zh: { p50Ms: percentile(samples.zh, 50), p99Ms: percentile(samples.zh, 99) },
        },
      };
    };
    context.progress(`knowledge: ${corpus.queries.length} labelled queries right after indexing`);
    for (const query of corpus.queries.slice(0, 20)) await ask(query);
    const hits = { en: 0, zh: 0 };
    const fresh = await measure(1, (query, items) => {
      if (items.some((item) => item.filename === query.filename && item.chunk_index === query.chunkIndex)) {
        hits[query.language] += 1;
      }
    });
    context.progress('knowledge: VACUUM (ANALYZE), then the queries again');
    const client = new Client({ connectionString: databaseUrl(database.name) });
    await client.connect();
    try {
      await client.query('VACUUM (ANALYZE) knowledge_postings, knowledge_chunks, knowledge_files');
    } finally {
      await client.end();
    }
    const settled = await measure(SETTLED_ROUNDS);
    return {
      files: FILES,
      chunks,
      indexSeconds,
      chunksPerSecond: chunks / indexSeconds,
      labelled: corpus.queries.length,
      recallAt5: {
        all: (hits.en + hits.zh) / corpus.queries.length,
        en: hits.en / QUERIES_PER_LANGUAGE,
        zh: hits.zh / QUERIES_PER_LANGUAGE,
      },
      fresh,
      settled,
      loadAverage: { start: loadAtStart, end: loadavg()[0] },
    };
  } catch (error) {
    const output = server.capturedOutput.trim();
    if (output !== '' && error instanceof Error) error.message += `\n--- server output ---\n${output}`;
    throw error;
  } finally {
    await server.stop();
    await database.drop();
  }
}

export function knowledgeLines(k: KnowledgeFigures): string[] {
  const pct = (value: number) => `${(value * 100).toFixed(1)}%`;
  const latency = (label: string, l: Latency) =>
    `Knowledge query over HTTP, ${label} (lexical BM25, ${l.queries} sequential): p50 ${l.p50Ms.toFixed(2)} ms, ` +
    `p99 ${l.p99Ms.toFixed(2)} ms (target p50 < 20 ms); en p50 ${l.byLanguage.en.p50Ms.toFixed(2)} ms, ` +
    `zh p50 ${l.byLanguage.zh.p50Ms.toFixed(2)} ms`;
  return [
    `Knowledge indexing: ${k.chunks} chunks in ${k.files} files (en+zh) uploaded and indexed in ` +
      `${k.indexSeconds.toFixed(1)} s = ${k.chunksPerSecond.toFixed(0)} chunks/s`,
    latency('right after indexing', k.fresh),
    latency('after VACUUM (ANALYZE)', k.settled),
    `Knowledge recall@5 on ${k.labelled} labelled queries: ${pct(k.recallAt5.all)} ` +
      `(en ${pct(k.recallAt5.en)}, zh ${pct(k.recallAt5.zh)}); load average ${k.loadAverage.start.toFixed(1)} → ` +
      `${k.loadAverage.end.toFixed(1)}`,
  ];
}
