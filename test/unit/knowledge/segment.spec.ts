import { segment } from '../../../src/modules/knowledge/search/segment';

describe('segment', () => {
  it('folds English words to lower case and drops punctuation', () => {
    expect(segment('The PostgreSQL guide, 2nd edition!')).toEqual([
      'the',
      'postgresql',
      'guide',
      '2nd',
      'edition',
    ]);
  });

  it('segments Chinese by words and adds the bigrams of longer words', () => {
    const terms = segment('知识库的检索');
    expect(terms).toEqual(expect.arrayContaining(['知识', '检索']));
    expect(terms).not.toContain('。');
  });

  it('pairs runs of single characters so an unknown term meets itself in any context', () => {
    const inText = segment('数据鹦樟服务');
    const inQuery = segment('鹦樟数据');
    expect(inText).toContain('鹦樟');
    expect(inQuery).toContain('鹦樟');
  });

  it('skips overlong tokens and folds full-width forms', () => {
    expect(segment(`${'x'.repeat(65)} ＡＢＣ`)).toEqual(['abc']);
  });
});
