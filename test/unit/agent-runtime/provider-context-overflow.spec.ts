import { describeProviderFailure } from '../../../src/modules/agent-runtime/model/provider-failure';

const http = (status: number, error: unknown) =>
  Object.assign(new Error('x'), { status, headers: {}, error });

describe('a provider context overflow', () => {
  it("is told by OpenAI's code or by a message about the context length, on a 400 only", () => {
    expect(describeProviderFailure(http(400, { code: 'context_length_exceeded' }))).toMatchObject({
      status: 400,
      contextOverflow: true,
    });
    expect(
      describeProviderFailure(http(400, { message: "This model's maximum context length is 8192 tokens." })),
    ).toMatchObject({ contextOverflow: true });
    expect(
      describeProviderFailure(http(400, { message: 'the prompt exceeds the context window' })),
    ).toMatchObject({
      contextOverflow: true,
    });
    expect(describeProviderFailure(http(400, { message: 'invalid tool schema' }))).not.toHaveProperty(
      'contextOverflow',
    );
    expect(describeProviderFailure(http(500, { code: 'context_length_exceeded' }))).not.toHaveProperty(
      'contextOverflow',
    );
  });

  it('is read from the cause LangChain wraps the provider error in', () => {
    const wrapped = Object.assign(new Error('wrapped'), {
      name: 'ContextOverflowError',
      cause: http(400, { code: 'context_length_exceeded' }),
    });
    expect(describeProviderFailure(wrapped)).toMatchObject({ status: 400, contextOverflow: true });
  });
});
