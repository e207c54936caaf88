import { describe, expect, it } from 'vitest';
import type { KbFile, KbFileStatus } from '../src/api/types';
import {
  POLL_BATCH,
  applyPolled,
  filesToPoll,
  formatSize,
  isSettled,
  pollDelay,
  versionNotes,
  withUploaded,
} from '../src/pages/knowledge/file-status';

let next = 0;
function file(filename: string, status: KbFileStatus, version = 1, id = `f${(next += 1)}`): KbFile {
  return {
    file_id: id,
    kb_id: 'kb',
    filename,
    file_type: 'md',
    size_bytes: 10,
    status,
    error: status === 'failed' ? { code: 'knowledge.no_text', message: 'No text.' } : null,
    version,
    line_count: null,
    chunk_count: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  };
}

describe('isSettled', () => {
  it('is true for indexed and failed only', () => {
    expect((['pending', 'parsing', 'indexed', 'failed'] as const).map(isSettled)).toEqual([
      false,
      false,
      true,
      true,
    ]);
  });
});

describe('filesToPoll', () => {
  it('stops when every file has settled', () => {
    expect(filesToPoll([file('a.md', 'indexed'), file('b.pdf', 'failed')])).toEqual([]);
  });

  it('asks about waiting files, the oldest first, a bounded number per round', () => {
    const list = [
      file('new.md', 'pending', 1, 'new'),
      file('x.md', 'indexed'),
      file('old.md', 'parsing', 1, 'old'),
    ];
    expect(filesToPoll(list)).toEqual(['old', 'new']);
    const many = Array.from({ length: POLL_BATCH + 5 }, () => file('m.md', 'pending'));
    expect(filesToPoll(many)).toHaveLength(POLL_BATCH);
  });
});

describe('pollDelay', () => {
  it('starts quick and backs off to at most five seconds', () => {
    const delays = [0, 1, 2, 3, 10].map(pollDelay);
    expect(delays[0]).toBe(600);
    expect(delays[1]).toBeGreaterThan(delays[0]);
    expect(delays[4]).toBe(5000);
  });
});

describe('applyPolled', () => {
  it('replaces answered rows, drops gone ones and keeps the rest in place', () => {
    const a = file('a.md', 'pending');
    const b = file('b.md', 'parsing');
    const c = file('c.md', 'indexed');
    const result = applyPolled(
      [a, b, c],
      new Map([
        [a.file_id, { ...a, status: 'failed' as const }],
        [b.file_id, null],
      ]),
    );
    expect(result.files.map((f) => [f.filename, f.status])).toEqual([
      ['a.md', 'failed'],
      ['c.md', 'indexed'],
    ]);
    expect(result.reload).toBe(false);
  });

  it('asks for the list again when a new version is indexed (the service deleted the old one)', () => {
    const v2 = file('policy.md', 'parsing', 2);
    const v1 = file('policy.md', 'indexed', 1);
    expect(applyPolled([v2, v1], new Map([[v2.file_id, { ...v2, status: 'indexed' as const }]])).reload).toBe(
      true,
    );
    const only = file('solo.md', 'pending');
    expect(
      applyPolled([only], new Map([[only.file_id, { ...only, status: 'indexed' as const }]])).reload,
    ).toBe(false);
  });
});

describe('withUploaded', () => {
  it('puts a new upload first and never shows a row twice', () => {
    const old = file('a.md', 'indexed');
    const up = file('b.md', 'pending');
    expect(withUploaded([old], up).map((f) => f.file_id)).toEqual([up.file_id, old.file_id]);
    expect(withUploaded([up, old], { ...up, status: 'parsing' })).toHaveLength(2);
  });
});

describe('versionNotes', () => {
  it('says a waiting version replaces the indexed one, which stays in use until then', () => {
    const v2 = file('policy.md', 'pending', 2);
    const v1 = file('policy.md', 'indexed', 1);
    const notes = versionNotes([v2, v1]);
    expect(notes.get(v2.file_id)).toEqual({ kind: 'replacing', version: 1 });
    expect(notes.get(v1.file_id)).toEqual({ kind: 'replacedSoon', by: 2 });
  });

  it('says a failed newer version left the indexed one in place', () => {
    const v3 = file('policy.md', 'failed', 3);
    const v2 = file('policy.md', 'indexed', 2);
    const notes = versionNotes([v3, v2]);
    expect(notes.get(v3.file_id)).toEqual({ kind: 'failedKept', version: 2 });
    expect(notes.has(v2.file_id)).toBe(false);
  });

  it('has nothing to say about a name with one version, or none indexed', () => {
    expect(
      versionNotes([file('a.md', 'indexed'), file('b.md', 'pending', 2), file('b.md', 'failed', 1)]).size,
    ).toBe(0);
  });
});

describe('formatSize', () => {
  it('uses B, KB and MB', () => {
    expect([512, 2048, 5 * 1024 * 1024].map(formatSize)).toEqual(['512 B', '2.0 KB', '5.0 MB']);
  });
});
