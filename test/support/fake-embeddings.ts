import { type LocalServer, startLocalServer } from '../integration/http-safety/local-servers';

/**
 * Words that mean the same thing share a dimension, so a query can meet a passage with no word in
 * common: what makes vector search observable. Other words hash into a few spare dimensions.
 */
const CONCEPTS: readonly (readonly string[])[] = [
  ['cat', 'cats', 'feline', 'kitten', '猫'],
  ['car', 'cars', 'automobile', 'vehicle', '汽车'],
  ['pay', 'salary', 'compensation', 'wages', '工资'],
  ['holiday', 'vacation', 'leave', '假期'],
];
const SPARE_DIMENSIONS = 8;

export function fakeEmbedding(text: string): number[] {
  const vector = new Array<number>(CONCEPTS.length + SPARE_DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const concept = CONCEPTS.findIndex((words) =>
      words.some((w) => word === w || (w.length === 1 && word.includes(w))),
    );
    if (concept >= 0) vector[concept] += 1;
    else
      vector[CONCEPTS.length + ([...word].reduce((h, c) => h + c.codePointAt(0)!, 0) % SPARE_DIMENSIONS)] +=
        0.1;
  }
  return vector;
}

/** An OpenAI-compatible `POST /embeddings` on 127.0.0.1 that records requests and can be made to fail. */
export class FakeEmbeddingsServer {
  /** While true, every request is answered 500. */
  failing = false;
  readonly calls: { model: string; input: string[] }[] = [];

  private constructor(private readonly server: LocalServer) {}

  static async start(): Promise<FakeEmbeddingsServer> {
    let self: FakeEmbeddingsServer | undefined = undefined;
    const server = await startLocalServer((req, res, body) => {
      const reply = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') return reply(404, { error: 'not found' });
      const parsed = JSON.parse(body) as { model: string; input: string[] | string };
      const input = Array.isArray(parsed.input) ? parsed.input : [parsed.input];
      self!.calls.push({ model: parsed.model, input });
      if (self!.failing) return reply(500, { error: { message: 'embeddings down' } });
      reply(200, {
        object: 'list',
        model: parsed.model,
        data: input.map((text, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(text) })),
      });
    });
    self = new FakeEmbeddingsServer(server);
    return self;
  }

  get baseUrl(): string {
    return `${this.server.origin}/v1`;
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
