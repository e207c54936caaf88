export const KNOWLEDGE_INDEXING_QUEUE = 'knowledge-indexing';
export const INDEX_FILE_JOB = 'index-file';

export interface IndexFileJob {
  fileId: string;
}

/** Tries of one job: a parse failure is final at once; only infrastructure errors are retried. */
export const INDEX_FILE_ATTEMPTS = 3;
