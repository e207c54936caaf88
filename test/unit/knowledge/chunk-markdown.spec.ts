import { chunkMarkdown, parseHeading } from '../../../src/modules/knowledge/indexing/chunk-markdown';

describe('chunkMarkdown', () => {
  it('starts a chunk at each heading and prefixes the heading trail', () => {
    const chunks = chunkMarkdown(
      '# Guide\n\nIntro text.\n\n## Install\n\nRun npm install.\n\n## Use\n\nCall it.',
    );
    expect(chunks).toEqual([
      'Guide\n\nIntro text.',
      'Guide > Install\n\nRun npm install.',
      'Guide > Use\n\nCall it.',
    ]);
  });

  it('splits a long section into bounded chunks that overlap', () => {
    const sentences = Array.from({ length: 60 }, (_, i) => `Sentence number ${i} says something.`);
    const chunks = chunkMarkdown(sentences.join(' '), { maxChars: 300, overlapChars: 60 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(300);
    for (let i = 1; i < chunks.length; i += 1) {
      const previousEnd = chunks[i - 1].slice(-20);
      expect(chunks[i]).toContain(previousEnd.trim().split(' ').slice(-1)[0]);
    }
    const all = chunks.join(' ');
    for (const sentence of sentences) expect(all).toContain(sentence);
  });

  it('splits Chinese text at sentence ends and keeps a fenced block whole', () => {
    const zh = '这是一个很长的句子，用来测试中文分块。'.repeat(30);
    const chunks = chunkMarkdown(`${zh}\n\n\`\`\`\ncode line\n\n  still code\n\`\`\``, {
      maxChars: 200,
      overlapChars: 30,
    });
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(200);
    expect(chunks.at(-1)).toContain('```\ncode line\n\n  still code\n```');
  });

  describe('headings', () => {
    const OLD_HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;

    it('reads a heading-like line with 5000 blanks before a line separator as text, as before', () => {
      const line = `# a${' '.repeat(5000)}\u2028x`;
      expect(parseHeading(line)).toBeNull();
      const chunks = chunkMarkdown(`# Title\n\n${line}\n\nbody`);
      expect(chunks[0].startsWith('Title\n\n# a')).toBe(true);
      expect(chunks.every((chunk) => chunk.startsWith('Title'))).toBe(true);
      expect(chunks.join('').replace(/\s+/g, '').replace(/Title/g, '')).toBe('#axbody');
    });

    it('reads levels and strips closing hashes as the old expression did', () => {
      expect(parseHeading('## Title ##  ')).toEqual({ level: 2, text: 'Title' });
      expect(parseHeading(`# a${' '.repeat(50_000)}b`)).toEqual({
        level: 1,
        text: `a${' '.repeat(50_000)}b`,
      });
      let seed = 7;
      const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
      const pieces = ['#', ' ', '\t', 'a', '\u2028', '\r', '\u00a0', '##'];
      for (let n = 0; n < 5000; n += 1) {
        const line = Array.from(
          { length: Math.floor(next() * 12) },
          () => pieces[Math.floor(next() * 8)],
        ).join('');
        const old = OLD_HEADING.exec(line);
        expect(parseHeading(line)).toEqual(old === null ? null : { level: old[1].length, text: old[2] });
      }
    });
  });
});
