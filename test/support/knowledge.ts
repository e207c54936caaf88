import { eventually } from './runs/run-event-rows';
import { auth } from './runs/run-helpers';
import type { TestContext, TestUser } from './test-app';

export interface KbFile {
  file_id: string;
  kb_id: string;
  filename: string;
  status: 'pending' | 'parsing' | 'indexed' | 'failed';
  error: { code: string; message: string } | null;
  version: number;
  line_count: number | null;
  chunk_count: number | null;
}

export async function uploadKbFile(
  ctx: TestContext,
  user: TestUser,
  kbId: string,
  filename: string,
  content: string | Buffer,
): Promise<KbFile> {
  const res = await ctx.http
    .post(`/api/knowledge-bases/${kbId}/files`)
    .set(auth(user))
    .attach('file', typeof content === 'string' ? Buffer.from(content) : content, filename);
  if (res.status !== 201) throw new Error(`upload refused: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as KbFile;
}

/** The file once indexing has finished with it (indexed or failed), read over HTTP. */
export async function settledKbFile(
  ctx: TestContext,
  user: TestUser,
  kbId: string,
  fileId: string,
  timeoutMs = 30_000,
): Promise<KbFile> {
  return eventually(
    async () =>
      (await ctx.http.get(`/api/knowledge-bases/${kbId}/files/${fileId}`).set(auth(user))).body as KbFile,
    (file) => file.status === 'indexed' || file.status === 'failed',
    timeoutMs,
  );
}

export async function queryKb(
  ctx: TestContext,
  user: TestUser,
  kbId: string,
  body: Record<string, unknown>,
): Promise<
  Array<{ file_id: string; filename: string; chunk_index: number; content: string; score: number }>
> {
  const res = await ctx.http.post(`/api/knowledge-bases/${kbId}/query`).set(auth(user)).send(body);
  if (res.status !== 200) throw new Error(`query refused: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as { items: [] }).items;
}
