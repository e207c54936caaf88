import { performance } from 'node:perf_hooks';
import { createBenchDatabase, startApp, type BenchContext } from './support/bench-context.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from './support/bench-env.js';
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
  queries: number;
  p50Ms: number;
  p99Ms: number;
  byLanguage: { en: { p50Ms: number; p99Ms: number }; zh: { p50Ms: number; p99Ms: number } };
}

const FILES = 50;
const SECTIONS_PER_FILE = 200;
const QUERIES_PER_LANGUAGE = 100;
const LATENCY_ROUNDS = 3;
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
 * through `POST /api/knowledge-bases/:kb_id/query`: recall@5, and p50/p99 over 3 rounds (sequential,
 * one connection per request, lexical: no embeddings model).
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

    const ask = async (query: LabelledQuery) => {
      const t = performance.now();
      const { items } = await httpJson<{ items: { filename: string; chunk_index: number }[] }>(
        `${base}/api/knowledge-bases/${kbId}/query`,
        { method: 'POST', headers, body: { query: query.query, top_k: 5 }, expectStatus: 200 },
      );
      return { ms: performance.now() - t, items };
    };
    context.progress(`knowledge: ${corpus.queries.length} labelled queries × ${LATENCY_ROUNDS} rounds`);
    for (const query of corpus.queries.slice(0, 20)) await ask(query);
    const hits = { en: 0, zh: 0 };
    const samples: Record<'en' | 'zh', number[]> = { en: [], zh: [] };
    for (let round = 0; round < LATENCY_ROUNDS; round++) {
      for (const query of corpus.queries) {
        const { ms, items } = await ask(query);
        samples[query.language].push(ms);
        if (
          round === 0 &&
          items.some((item) => item.filename === query.filename && item.chunk_index === query.chunkIndex)
        ) {
          hits[query.language] += 1;
        }
      }
    }
    const all = [...samples.en, ...samples.zh];
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
      queries: all.length,
      p50Ms: percentile(all, 50),
      p99Ms: percentile(all, 99),
      byLanguage: {
        en: { p50Ms: percentile(samples.en, 50), p99Ms: percentile(samples.en, 99) },
        zh: { p50Ms: percentile(samples.zh, 50), p99Ms: percentile(samples.zh, 99) },
      },
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
  return [
    `Knowledge indexing: ${k.chunks} chunks in ${k.files} files (en+zh) uploaded and indexed in ` +
      `${k.indexSeconds.toFixed(1)} s = ${k.chunksPerSecond.toFixed(0)} chunks/s`,
    `Knowledge query over HTTP (lexical BM25, ${k.queries} sequential queries): p50 ${k.p50Ms.toFixed(2)} ms, ` +
      `p99 ${k.p99Ms.toFixed(2)} ms (target p50 < 20 ms); en p50 ${k.byLanguage.en.p50Ms.toFixed(2)} ms, ` +
      `zh p50 ${k.byLanguage.zh.p50Ms.toFixed(2)} ms`,
    `Knowledge recall@5 on ${k.labelled} labelled queries: ${pct(k.recallAt5.all)} ` +
      `(en ${pct(k.recallAt5.en)}, zh ${pct(k.recallAt5.zh)})`,
  ];
}
