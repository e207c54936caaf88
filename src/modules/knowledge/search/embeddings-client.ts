import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config.js';
import { KnowledgeErrors } from '../knowledge.errors.js';

const TIMEOUT_MS = 30_000;
/** Inputs per `/embeddings` request. */
export const EMBEDDINGS_BATCH = 64;

interface EmbeddingsResponse {
  data?: Array<{ index?: number; embedding?: unknown }>;
}

const unit = (vector: number[]): number[] => {
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
  return norm === 0 ? vector : vector.map((value) => value / norm);
};

/**
 * An OpenAI-compatible `/embeddings` endpoint (`OPENAI_BASE_URL`, `OPENAI_API_KEY`), used only when
 * `EMBEDDINGS_MODEL` is set. Vectors come back normalized to length 1, so cosine similarity is a dot
 * product.
 */
@Injectable()
export class EmbeddingsClient {
  constructor(private readonly config: AppConfig) {}

  get enabled(): boolean {
    return this.config.llm.embeddingsModel !== null;
  }

  async embed(inputs: string[]): Promise<number[][]> {
    const model = this.config.llm.embeddingsModel;
    if (model === null || inputs.length === 0) return [];
    const key = this.config.llm.openaiApiKey?.reveal();
    let response: Response;
    try {
      response = await fetch(`${this.config.llm.openaiBaseUrl.replace(/\/+$/, '')}/embeddings`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
        },
        body: JSON.stringify({ model, input: inputs }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw KnowledgeErrors.embeddingsFailed(error instanceof Error ? error.message : String(error));
    }
    if (!response.ok) throw KnowledgeErrors.embeddingsFailed(`HTTP ${response.status}`);
    const body = (await response.json().catch(() => ({}))) as EmbeddingsResponse;
    const data = Array.isArray(body.data) ? body.data : [];
    const vectors = new Array<number[] | undefined>(inputs.length);
    data.forEach((item, position) => {
      const index = typeof item.index === 'number' ? item.index : position;
      if (Array.isArray(item.embedding) && item.embedding.every((v) => typeof v === 'number')) {
        vectors[index] = unit(item.embedding);
      }
    });
    if (vectors.some((vector) => vector === undefined) || vectors.length !== inputs.length) {
      throw KnowledgeErrors.embeddingsFailed('the response does not hold one vector per input');
    }
    return vectors as number[][];
  }
}
