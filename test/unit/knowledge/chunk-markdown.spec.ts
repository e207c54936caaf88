import { chunkMarkdown } from '../../../src/modules/knowledge/indexing/chunk-markdown';

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
});
