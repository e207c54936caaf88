import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { ListImprovementMarksQueryDto } from '../../../src/modules/improvement-marks/dto/list-improvement-marks-query.dto';

async function failedFields(query: Record<string, string>): Promise<string[]> {
  const dto = plainToInstance(ListImprovementMarksQueryDto, query);
  const errors = await validate(dto, { whitelist: true, forbidNonWhitelisted: true });
  return errors.map((e) => e.property).sort();
}

describe('GET /api/improvement-marks query', () => {
  const id = '3f1c6c2e-8a4b-4c59-9f0e-2b7d1a4e5c6d';

  it('accepts every filter when well-formed, since equal to until included', async () => {
    expect(
      await failedFields({
        agent_slug: 'default-chatbot',
        user_id: id,
        run_id: id,
        since: '2026-01-01T00:00:00Z',
        until: '2026-01-01T00:00:00Z',
        limit: '10',
      }),
    ).toEqual([]);
    expect(await failedFields({ since: '2026-01-01', until: '2026-02-01T08:30:00.123+08:00' })).toEqual([]);
  });

  it('refuses malformed ids and times', async () => {
    expect(await failedFields({ user_id: 'me', run_id: '123' })).toEqual(['run_id', 'user_id']);
    expect(await failedFields({ since: 'yesterday' })).toEqual(['since']);
    expect(await failedFields({ until: '2026-02-30T00:00:00Z' })).toEqual(['until']);
    expect(await failedFields({ since: '2026-13-01' })).toEqual(['since']);
  });

  it('refuses an until before since', async () => {
    expect(await failedFields({ since: '2026-03-02T00:00:00Z', until: '2026-03-01T23:59:59Z' })).toEqual([
      'until',
    ]);
  });

  it('refuses unknown fields and out-of-range limits', async () => {
    expect(await failedFields({ owner: id })).toEqual(['owner']);
    expect(await failedFields({ limit: '0' })).toEqual(['limit']);
    expect(await failedFields({ limit: '201' })).toEqual(['limit']);
  });
});
