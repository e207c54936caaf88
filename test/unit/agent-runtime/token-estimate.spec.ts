import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import {
  encodingOfModel,
  heuristicTokens,
  TokenCounter,
  tokenCounterFor,
} from '../../../src/modules/agent-runtime/context/token-estimate';

describe('token estimate', () => {
  it('knows the encodings of the OpenAI family and nothing else', () => {
    expect(encodingOfModel('gpt-4o-mini')).toBe('o200k_base');
    expect(encodingOfModel('openai/gpt-4.1')).toBe('o200k_base');
    expect(encodingOfModel('o3-mini')).toBe('o200k_base');
    expect(encodingOfModel('gpt-4-turbo')).toBe('cl100k_base');
    expect(encodingOfModel('gpt-3.5-turbo')).toBe('cl100k_base');
    expect(encodingOfModel('qwen2.5:7b')).toBeNull();
    expect(encodingOfModel('Qwen/Qwen2.5-7B-Instruct')).toBeNull();
    expect(tokenCounterFor('llama3').encoding).toBeNull();
  });

  it('falls back to a third of a token per letter, half per digit or punctuation, one per other character', () => {
    expect(heuristicTokens('')).toBe(0);
    expect(heuristicTokens('abcdef')).toBe(2);
    expect(heuristicTokens('abcdefg')).toBe(3);
    expect(heuristicTokens('2026, {}')).toBe(4);
    expect(heuristicTokens('中文测试')).toBe(4);
    expect(heuristicTokens('😀')).toBe(1); // a surrogate pair counts once
  });

  it('keeps the heuristic at or above the real count for prose, code, JSON, numbers and CJK', () => {
    const exact = new TokenCounter('cl100k_base');
    const samples = [
      'The quick brown fox jumps over the lazy dog, and then it reads the file again. '.repeat(20),
      JSON.stringify({ path: '/home/gem/user-data/workdir/t-1/notes.md', lines: [1, 2, 3], ok: true }).repeat(
        10,
      ),
      '这是一个测试，我们需要估计中文文本的令牌数量。'.repeat(20),
      'Voilà, café résumé naïve. '.repeat(30),
      '1234567890 '.repeat(100),
      readFileSync(
        join(__dirname, '../../../src/modules/agent-runtime/worker/session/model-call.ts'),
        'utf8',
      ),
    ];
    for (const sample of samples) expect(heuristicTokens(sample)).toBeGreaterThanOrEqual(exact.text(sample));
  });

  it('counts messages with their tool calls, and the byte bound is never below the count', () => {
    const counter = new TokenCounter('cl100k_base');
    const history = [
      new HumanMessage({ id: 'u1', content: 'Read the notes, please.' }),
      new AIMessage({
        id: 'a1',
        content: '',
        tool_calls: [{ id: 'c1', name: 'read_file', args: { file_path: 'notes.md' }, type: 'tool_call' }],
      }),
      new ToolMessage({ id: 't1', content: 'line one\nline two', tool_call_id: 'c1', name: 'read_file' }),
    ];
    const tools = [
      { type: 'function' as const, function: { name: 'read_file', parameters: { type: 'object' } } },
    ];
    const total = counter.request(history, tools);
    expect(total).toBeGreaterThan(
      counter.text('Read the notes, please.') + counter.text('line one\nline two'),
    );
    expect(counter.message(history[1])).toBeGreaterThan(counter.text('read_file'));
    expect(counter.upperBound(history, tools)).toBeGreaterThanOrEqual(total);
  });

  it('counts a message once: by object, then by id for the same message read back from a checkpoint', () => {
    const counter = new TokenCounter(null);
    const message = new HumanMessage({ id: 'm-1', content: 'x'.repeat(300) });
    const text = jest.spyOn(counter, 'text');
    const first = counter.message(message);
    expect(counter.message(message)).toBe(first);
    expect(counter.message(new HumanMessage({ id: 'm-1', content: 'x'.repeat(300) }))).toBe(first);
    expect(text).toHaveBeenCalledTimes(1);
    // Another id (or another length under the same id) is counted again.
    counter.message(new HumanMessage({ id: 'm-2', content: 'y'.repeat(300) }));
    expect(text).toHaveBeenCalledTimes(2);
  });
});
