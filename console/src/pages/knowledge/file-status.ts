import type { KbFile, KbFileStatus } from '../../api/types';

/** What the indexing queue ends in: nothing changes a file after this but a new upload or a delete. */
export function isSettled(status: KbFileStatus): boolean {
  return status === 'indexed' || status === 'failed';
}

/** Files are checked one by one: at most this many per round (the oldest waiting ones go first). */
export const POLL_BATCH = 20;

/** The files to ask about in the next round, or none when every file has settled (polling stops). */
export function filesToPoll(files: readonly KbFile[]): string[] {
  return files
    .filter((file) => !isSettled(file.status))
    .reverse()
    .slice(0, POLL_BATCH)
    .map((file) => file.file_id);
}

const FIRST_DELAY_MS = 600;
const MAX_DELAY_MS = 5000;

/** Quick at first (a small document indexes in about a second), then backing off to every 5 s. */
export function pollDelay(round: number): number {
  return Math.min(MAX_DELAY_MS, Math.round(FIRST_DELAY_MS * 1.5 ** Math.max(0, round)));
}

/**
 * One round's answers folded into the list: a file answered replaces its row, `null` (the service says
 * it is gone) removes it. `reload` asks for the list again when a new version reached `indexed`: the
 * service has deleted the older versions of that name, which this list still shows.
 */
export function applyPolled(
  files: readonly KbFile[],
  answers: ReadonlyMap<string, KbFile | null>,
): { files: KbFile[]; reload: boolean } {
  let reload = false;
  const next: KbFile[] = [];
  for (const file of files) {
    if (!answers.has(file.file_id)) {
      next.push(file);
      continue;
    }
    const answer = answers.get(file.file_id) ?? null;
    if (answer === null) continue;
    if (answer.status === 'indexed' && file.status !== 'indexed') {
      reload ||= files.some((other) => other.filename === answer.filename && other.version < answer.version);
    }
    next.push(answer);
  }
  return { files: next, reload };
}

/** A new upload goes first (the list is newest first); an answer for a row already shown replaces it. */
export function withUploaded(files: readonly KbFile[], uploaded: KbFile): KbFile[] {
  return [uploaded, ...files.filter((file) => file.file_id !== uploaded.file_id)];
}

/**
 * How a row relates to other versions of its name. The service keeps the indexed version searchable
 * until a newer one is indexed (then deletes it); a newer version that failed leaves it in place.
 */
export type VersionNote =
  | { kind: 'replacing'; version: number }
  | { kind: 'replacedSoon'; by: number }
  | { kind: 'failedKept'; version: number };

export function versionNotes(files: readonly KbFile[]): Map<string, VersionNote> {
  const notes = new Map<string, VersionNote>();
  const byName = new Map<string, KbFile[]>();
  for (const file of files) byName.set(file.filename, [...(byName.get(file.filename) ?? []), file]);
  for (const group of byName.values()) {
    const inUse = group
      .filter((file) => file.status === 'indexed')
      .reduce<KbFile | null>(
        (best, file) => (best === null || file.version > best.version ? file : best),
        null,
      );
    if (inUse === null) continue;
    const newer = group.filter((file) => file.version > inUse.version);
    const waiting = newer.filter((file) => !isSettled(file.status));
    for (const file of waiting) notes.set(file.file_id, { kind: 'replacing', version: inUse.version });
    for (const file of newer.filter((f) => f.status === 'failed'))
      notes.set(file.file_id, { kind: 'failedKept', version: inUse.version });
    if (waiting.length > 0)
      notes.set(inUse.file_id, {
        kind: 'replacedSoon',
        by: Math.max(...waiting.map((file) => file.version)),
      });
  }
  return notes;
}

/** Sizes as people read them: bytes, KB, MB (powers of 1024). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The extensions a knowledge base accepts (the service's `KB_FILE_TYPES`): a hint to the file picker. */
export const KB_ACCEPT = '.md,.markdown,.txt,.html,.htm,.pdf,.docx,.csv,.xlsx';
