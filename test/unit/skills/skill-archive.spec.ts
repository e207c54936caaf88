import { strToU8, zipSync } from 'fflate';
import fs from 'node:fs';
import { ArchiveRefusal, type ArchiveRefusalReason } from '../../../src/common/archive';
import { readSkillArchive, SKILL_ARCHIVE_LIMITS } from '../../../src/modules/skills/archive/skill-archive';
import { looseWhitespace, makeLyingZip, type LyingEntry } from '../../support/fixtures/make-lying-zip';

const KB = 1024;
const MB = 1024 * KB;
const SMALL = { ...SKILL_ARCHIVE_LIMITS, maxUnzippedBytes: MB };

const WRITE_CALLS = [
  'writeFile',
  'writeFileSync',
  'appendFile',
  'appendFileSync',
  'mkdir',
  'mkdirSync',
  'mkdtemp',
  'mkdtempSync',
  'open',
  'openSync',
  'createWriteStream',
  'rename',
  'renameSync',
  'copyFile',
  'copyFileSync',
  'cp',
  'cpSync',
  'symlink',
  'symlinkSync',
  'link',
  'linkSync',
];
const PROMISE_WRITE_CALLS = [
  'writeFile',
  'appendFile',
  'mkdir',
  'mkdtemp',
  'open',
  'rename',
  'copyFile',
  'cp',
  'symlink',
  'link',
];

const honest = (name: string, text = 'x', extra: Partial<LyingEntry> = {}): LyingEntry => {
  const data = strToU8(text);
  return { name, data, declaredSize: data.length, ...extra };
};
const zipOf = (...entries: LyingEntry[]) => makeLyingZip(entries);

/** The refusal `read` throws (failing the test when it returns or throws anything else). */
function refusalOf(read: () => unknown): ArchiveRefusal {
  let thrown: unknown;
  try {
    read();
  } catch (error) {
    thrown = error;
  }
  if (!(thrown instanceof ArchiveRefusal))
    throw new Error(`expected an ArchiveRefusal, got ${String(thrown)}`);
  return thrown;
}

describe('readSkillArchive: entries checked before anything is inflated or written', () => {
  // Nothing may be written anywhere (no temp files in DATA_DIR or os.tmpdir()): every fs call that
  // creates or writes a file or folder is watched, and none may happen.
  const writers: jest.SpyInstance[] = [];
  beforeAll(() => {
    for (const name of WRITE_CALLS) writers.push(jest.spyOn(fs, name as never).mockName(`fs.${name}`));
    for (const name of PROMISE_WRITE_CALLS)
      writers.push(jest.spyOn(fs.promises, name as never).mockName(`fs.promises.${name}`));
  });
  afterEach(() => {
    expect(writers.filter((spy) => spy.mock.calls.length > 0).map((spy) => spy.getMockName())).toEqual([]);
  });
  afterAll(() => writers.forEach((spy) => spy.mockRestore()));

  it('keeps the documented limits', () => {
    expect(SKILL_ARCHIVE_LIMITS).toEqual({
      maxFiles: 1000,
      maxEntries: 2000,
      maxDepth: 64,
      maxUnzippedBytes: 100 * MB,
      maxRatio: 100,
      graceBytes: MB,
    });
  });

  it('returns the files byte for byte, stored or deflated, without the directory entries', () => {
    const binary = Uint8Array.from({ length: 300 }, (_, i) => (i * 7) % 256);
    const zip = zipSync({
      'pkg/': new Uint8Array(0),
      'pkg/SKILL.md': [strToU8('---\nname: a\n---\n'), { level: 9 }],
      'pkg/assets/logo.bin': [binary, { level: 0 }],
    });
    const { entries } = readSkillArchive(zip, SMALL);
    expect(entries.map((e) => [e.path, Buffer.from(e.bytes).toString('hex')])).toEqual([
      ['pkg/SKILL.md', Buffer.from('---\nname: a\n---\n').toString('hex')],
      ['pkg/assets/logo.bin', Buffer.from(binary).toString('hex')],
    ]);
  });

  it.each<[string, string]>([
    ['zip slip', 'skill/../../etc/cron.d/x'],
    ['a leading ..', '../x'],
    ['an absolute path', '/etc/passwd'],
    ['a drive letter', 'C:/Windows/x'],
    ['a backslash', 'skill\\..\\x'],
    ['a NUL', 'skill/SKILL.md\u0000.png'],
    ['a control character', 'skill/a\u0007b'],
    ['a "." segment', 'skill/./SKILL.md'],
    ['an empty segment', 'skill//SKILL.md'],
  ])('refuses %s as path_unsafe, naming the entry', (_label, name) => {
    const refusal = refusalOf(() => readSkillArchive(zipOf(honest('skill/SKILL.md'), honest(name)), SMALL));
    expect(refusal.reason).toBe<ArchiveRefusalReason>('path_unsafe');
    expect(refusal.details.path).toBe(name);
  });

  it('refuses a symlink entry (Unix mode in the external attributes), and a device or FIFO entry', () => {
    const link = honest('skill/evil', '/etc/passwd', { externalAttributes: (0o120777 << 16) >>> 0 });
    const refusal = refusalOf(() => readSkillArchive(zipOf(honest('skill/SKILL.md'), link), SMALL));
    expect(refusal).toMatchObject({ reason: 'symlink', details: { path: 'skill/evil' } });
    const fifo = honest('skill/pipe', '', { externalAttributes: (0o010644 << 16) >>> 0 });
    expect(refusalOf(() => readSkillArchive(zipOf(fifo), SMALL)).reason).toBe('path_unsafe');
    // an ordinary Unix file mode is fine
    const file = honest('skill/run.sh', 'echo', { externalAttributes: (0o100755 << 16) >>> 0 });
    expect(readSkillArchive(zipOf(file), SMALL).entries.map((e) => e.path)).toEqual(['skill/run.sh']);
  });

  it.each<[string, string, string]>([
    ['the same name twice', 'skill/a.md', 'skill/a.md'],
    ['names differing only in case', 'skill/README.md', 'skill/readme.md'],
    ['NFC and NFD spellings of one name', 'skill/caf\u00e9.md', 'skill/cafe\u0301.md'],
    ['a file where another entry needs a folder', 'skill/refs', 'skill/refs/a.md'],
    ['a file and a directory entry of the same name', 'skill/notes', 'skill/notes/'],
  ])('refuses %s as duplicate', (_label, first, second) => {
    const refusal = refusalOf(() => readSkillArchive(zipOf(honest(first), honest(second, '')), SMALL));
    expect(refusal.reason).toBe('duplicate');
    expect(refusal.details.path).toBe(second);
  });

  it('refuses a path 65 levels deep and accepts one of 64', () => {
    const at = (levels: number) => `${'d/'.repeat(levels - 1)}f.md`;
    expect(refusalOf(() => readSkillArchive(zipOf(honest(at(65))), SMALL))).toMatchObject({
      reason: 'too_deep',
      details: { limit: '64 levels', path: at(65) },
    });
    expect(readSkillArchive(zipOf(honest(at(64))), SMALL).entries).toHaveLength(1);
  });

  it('refuses 1001 files (too_many_files) and 2001 entries (too_many_entries); 1000 files pass', () => {
    const files = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`s/f${i}.md`, strToU8('x')]));
    expect(refusalOf(() => readSkillArchive(zipSync(files(1001)), SMALL))).toMatchObject({
      reason: 'too_many_files',
      details: { limit: '1000 files' },
    });
    expect(readSkillArchive(zipSync(files(1000)), SMALL).entries).toHaveLength(1000);
    const folders = Object.fromEntries(
      Array.from({ length: 2001 }, (_, i) => [`s/d${i}/`, new Uint8Array(0)]),
    );
    expect(refusalOf(() => readSkillArchive(zipSync(folders), SMALL))).toMatchObject({
      reason: 'too_many_entries',
      details: { limit: '2000 entries' },
    });
  });

  it('counts the bytes actually inflated: entries declaring 10 bytes that inflate past the cap are too_large', () => {
    const part = looseWhitespace(400 * KB); // about 4:1, under the ratio cap
    const lying = makeLyingZip([1, 2, 3].map((i) => ({ name: `s/p${i}.md`, data: part, declaredSize: 10 })));
    expect(refusalOf(() => readSkillArchive(lying, SMALL))).toMatchObject({
      reason: 'too_large',
      details: { limit: `${MB} bytes` },
    });
    expect(readSkillArchive(lying, { ...SMALL, maxUnzippedBytes: 2 * MB }).entries).toHaveLength(3);
  });

  it('refuses an archive that declares more than the cap before inflating anything', () => {
    const declared = honest('s/big.md', 'tiny', { declaredSize: MB + 1 });
    expect(refusalOf(() => readSkillArchive(zipOf(declared), SMALL))).toMatchObject({
      reason: 'too_large',
      details: { limit: `${MB} bytes` },
    });
  });

  it('refuses an entry inflating to more than 100 times its compressed size (ratio), lying or not', () => {
    const zeros = new Uint8Array(2 * MB);
    const limits = { ...SMALL, maxUnzippedBytes: 10 * MB };
    for (const declaredSize of [zeros.length, 100]) {
      const bomb = makeLyingZip([{ name: 's/zeros.md', data: zeros, declaredSize }]);
      expect(refusalOf(() => readSkillArchive(bomb, limits))).toMatchObject({
        reason: 'ratio',
        details: { path: 's/zeros.md' },
      });
    }
    // under the grace size, repetitive files are fine
    const small = makeLyingZip([{ name: 's/zeros.md', data: new Uint8Array(MB), declaredSize: MB }]);
    expect(readSkillArchive(small, limits).entries[0].bytes.byteLength).toBe(MB);
  });

  it('reports a truncated or corrupt archive as damaged', () => {
    const zip = Buffer.from(zipSync({ 's/SKILL.md': strToU8('<a>'.repeat(100)) }));
    expect(refusalOf(() => readSkillArchive(zip.subarray(0, 30), SMALL)).reason).toBe('damaged');
    expect(refusalOf(() => readSkillArchive(Buffer.from('not a zip at all, just text'), SMALL)).reason).toBe(
      'damaged',
    );
    zip.fill(0xff, 40, 60);
    expect(refusalOf(() => readSkillArchive(zip, SMALL)).reason).toBe('damaged');
  });
});
