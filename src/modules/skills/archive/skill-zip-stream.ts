import { Zip, ZipDeflate } from 'fflate';
import { Readable } from 'node:stream';
import type { SkillTreeEntry } from '../storage/skill-files.js';
import { openSkillFile } from '../storage/skill-tree-hash.js';

/**
 * A skill folder as a zip stream (entries under `<prefix>/`): each file is read in chunks and deflated
 * as it goes, and the stream is pulled by its reader, so neither the skill nor the zip is ever whole in
 * memory and a slow client holds back the reading.
 */
export function zipSkillFolder(dir: string, prefix: string, files: readonly SkillTreeEntry[]): Readable {
  return Readable.from(zipChunks(dir, prefix, files), { objectMode: false });
}

async function* zipChunks(
  dir: string,
  prefix: string,
  files: readonly SkillTreeEntry[],
): AsyncGenerator<Uint8Array> {
  const ready: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error !== null) failure = error;
    else ready.push(chunk);
  });
  const drain = function* (): Generator<Uint8Array> {
    if (failure !== null) throw failure;
    while (ready.length > 0) yield ready.shift()!;
  };
  for (const file of files) {
    const entry = new ZipDeflate(`${prefix}/${file.path}`, { level: 6 });
    zip.add(entry);
    for await (const chunk of await openSkillFile(dir, file.path)) {
      entry.push(chunk as Buffer);
      yield* drain();
    }
    entry.push(new Uint8Array(0), true);
    yield* drain();
  }
  zip.end();
  yield* drain();
}
