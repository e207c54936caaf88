import { reciprocalRankFusion } from '../../../src/modules/knowledge/search/reciprocal-rank-fusion';

describe('reciprocalRankFusion', () => {
  it('ranks what both lists rank well above what only one ranks first', () => {
    const lexical = [
      { id: '1', score: 9 },
      { id: '2', score: 8 },
      { id: '3', score: 1 },
    ];
    const semantic = [
      { id: '4', score: 0.99 },
      { id: '2', score: 0.9 },
    ];
    const fused = reciprocalRankFusion([lexical, semantic]);
    expect(fused.map((chunk) => chunk.id)).toEqual(['2', '1', '4', '3']);
    expect(fused[0].score).toBeCloseTo(2 / 62, 10);
  });

  it('keeps a single ranking in order and breaks ties by id', () => {
    expect(
      reciprocalRankFusion([[{ id: '10', score: 1 }], [{ id: '9', score: 1 }]]).map((c) => c.id),
    ).toEqual(['9', '10']);
  });
});
