/** One search result, best first. No access checks happen in search: callers check first. */
export interface KbHit {
  kbId: string;
  fileId: string;
  filename: string;
  chunkIndex: number;
  content: string;
  score: number;
}

export interface KbQuery {
  kbIds: string[];
  query: string;
  topK: number;
  /** Only chunks of the file with this name (case-insensitive, exact). */
  fileName?: string;
}
