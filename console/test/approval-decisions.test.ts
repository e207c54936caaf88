import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../src/api/types';
import {
  buildDecisions,
  checkEditedArgs,
  draftFor,
  type DecisionDraft,
} from '../src/pages/chat/approval-decisions';

const schema = {
  type: 'object',
  required: ['path', 'mode'],
  properties: {
    path: { type: 'string' },
    mode: { type: 'string', enum: ['read', 'write'] },
    count: { type: 'integer' },
    ratio: { type: 'number' },
    force: { type: 'boolean' },
    tags: { type: 'array' },
    options: { type: 'object' },
    parent: { type: 'null' },
    level: { enum: [1, 2, 3] },
    anything: {},
  },
};

function request(id: string, fields: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return {
    tool_call_id: id,
    name: 'write_file',
    args: { path: 'a.txt', mode: 'write' },
    source: 'builtin',
    reason: 'Writes a file',
    args_schema: schema,
    ...fields,
  };
}

function draft(fields: Partial<DecisionDraft>): DecisionDraft {
  return { choice: null, message: '', argsText: '{}', rememberThread: false, ...fields };
}

describe('draftFor', () => {
  it('starts undecided, with the call arguments as indented JSON', () => {
    expect(draftFor(request('c1', { args: { path: 'a.txt', n: 2 } }))).toEqual({
      choice: null,
      message: '',
      argsText: '{\n  "path": "a.txt",\n  "n": 2\n}',
      rememberThread: false,
    });
  });
});

describe('checkEditedArgs', () => {
  it('accepts an object that follows the schema and returns it', () => {
    const args = { path: 'b.txt', mode: 'read', count: 3, ratio: 0.5, force: true, tags: [], options: {} };
    expect(checkEditedArgs(JSON.stringify(args), schema)).toEqual({ args });
  });

  it('reports text that is not JSON, with the parser message', () => {
    const checked = checkEditedArgs('{"path": ', schema);
    expect(checked).toEqual({ problem: { kind: 'invalid_json', error: expect.any(String) as string } });
    if (!('problem' in checked) || checked.problem.kind !== 'invalid_json') throw new Error('no problem');
    expect(checked.problem.error.length).toBeGreaterThan(0);
  });

  it.each(['[]', '[{"path":"a"}]', 'null', '"text"', '42', 'true'])('reports %s as not an object', (text) => {
    expect(checkEditedArgs(text, schema)).toEqual({ problem: { kind: 'not_object' } });
  });

  it('reports the first required field missing', () => {
    expect(checkEditedArgs('{"mode":"read"}', schema)).toEqual({
      problem: { kind: 'missing_field', field: 'path' },
    });
    expect(checkEditedArgs('{"path":"a"}', schema)).toEqual({
      problem: { kind: 'missing_field', field: 'mode' },
    });
  });

  it('counts a required field present with a null value as present, then checks its type', () => {
    expect(checkEditedArgs('{"path":null,"mode":"read"}', schema)).toEqual({
      problem: { kind: 'wrong_type', field: 'path', expected: 'string' },
    });
  });

  it.each([
    ['path', 7, 'string'],
    ['count', 1.5, 'integer'],
    ['count', '3', 'integer'],
    ['ratio', '0.5', 'number'],
    ['force', 'yes', 'boolean'],
    ['tags', {}, 'array'],
    ['options', [], 'object'],
    ['options', null, 'object'],
    ['parent', 0, 'null'],
  ])('reports %s = %j as not of type %s', (field, value, expected) => {
    const text = JSON.stringify({ path: 'a', mode: 'read', [field]: value });
    expect(checkEditedArgs(text, schema)).toEqual({ problem: { kind: 'wrong_type', field, expected } });
  });

  it('accepts whole numbers as integers and any number as a number', () => {
    expect(checkEditedArgs('{"path":"a","mode":"read","count":4,"ratio":4}', schema)).toHaveProperty('args');
    expect(checkEditedArgs('{"path":"a","mode":"read","parent":null}', schema)).toHaveProperty('args');
  });

  it('reports a value outside the enum, listing the allowed values as JSON', () => {
    expect(checkEditedArgs('{"path":"a","mode":"append"}', schema)).toEqual({
      problem: { kind: 'wrong_type', field: 'mode', expected: '"read" | "write"' },
    });
    expect(checkEditedArgs('{"path":"a","mode":"read","level":4}', schema)).toEqual({
      problem: { kind: 'wrong_type', field: 'level', expected: '1 | 2 | 3' },
    });
  });

  it('accepts a value of the enum and fields the schema does not declare', () => {
    expect(checkEditedArgs('{"path":"a","mode":"read","level":2,"extra":[1]}', schema)).toEqual({
      args: { path: 'a', mode: 'read', level: 2, extra: [1] },
    });
  });

  it('checks only that the text is a JSON object when there is no schema', () => {
    expect(checkEditedArgs('{"x":1}', undefined)).toEqual({ args: { x: 1 } });
    expect(checkEditedArgs('[1]', undefined)).toEqual({ problem: { kind: 'not_object' } });
  });
});

describe('buildDecisions', () => {
  const calls = [request('c1'), request('c2'), request('c3')];

  it('builds approve, reject and edit decisions, one per call', () => {
    expect(
      buildDecisions(calls, {
        c1: draft({ choice: 'approve' }),
        c2: draft({ choice: 'reject', message: '  Not that file.  ' }),
        c3: draft({ choice: 'edit', argsText: '{"path":"b.txt","mode":"read"}' }),
      }),
    ).toEqual({
      decisions: {
        c1: { decision: 'approve' },
        c2: { decision: 'reject', message: 'Not that file.' },
        c3: { decision: 'edit', args: { path: 'b.txt', mode: 'read' } },
      },
    });
  });

  it('sends a reject without a message when the message is empty or only spaces', () => {
    const built = buildDecisions([request('c1')], { c1: draft({ choice: 'reject', message: '   ' }) });
    expect(built).toEqual({ decisions: { c1: { decision: 'reject' } } });
  });

  it('names the first call without a decision', () => {
    expect(
      buildDecisions(calls, { c1: draft({ choice: 'approve' }), c3: draft({ choice: 'approve' }) }),
    ).toEqual({
      invalid: 'c2',
    });
    expect(buildDecisions(calls, { c1: draft({ choice: null }) })).toEqual({ invalid: 'c1' });
  });

  it.each([
    ['invalid JSON', '{"path":'],
    ['a non-object', '["a"]'],
    ['a missing required field', '{"path":"b.txt"}'],
    ['a wrong type', '{"path":1,"mode":"read"}'],
    ['a value outside the enum', '{"path":"b.txt","mode":"delete"}'],
  ])('names a call whose edited arguments are %s', (_name, argsText) => {
    expect(
      buildDecisions(calls, {
        c1: draft({ choice: 'approve' }),
        c2: draft({ choice: 'edit', argsText }),
        c3: draft({ choice: 'approve' }),
      }),
    ).toEqual({ invalid: 'c2' });
  });

  it('ignores the edited text of a call that is approved or rejected', () => {
    expect(
      buildDecisions([request('c1'), request('c2')], {
        c1: draft({ choice: 'approve', argsText: 'not json' }),
        c2: draft({ choice: 'reject', argsText: 'not json' }),
      }),
    ).toEqual({ decisions: { c1: { decision: 'approve' }, c2: { decision: 'reject' } } });
  });

  it('remembers the thread on approve and edit when asked', () => {
    expect(
      buildDecisions([request('c1'), request('c2')], {
        c1: draft({ choice: 'approve', rememberThread: true }),
        c2: draft({ choice: 'edit', argsText: '{"path":"a","mode":"read"}', rememberThread: true }),
      }),
    ).toEqual({
      decisions: {
        c1: { decision: 'approve', remember: 'thread' },
        c2: { decision: 'edit', args: { path: 'a', mode: 'read' }, remember: 'thread' },
      },
    });
  });

  it('never remembers a reject, even when the box was ticked before choosing reject', () => {
    const built = buildDecisions([request('c1')], {
      c1: draft({ choice: 'reject', message: 'no', rememberThread: true }),
    });
    expect(built).toEqual({ decisions: { c1: { decision: 'reject', message: 'no' } } });
  });

  it('does not remember anything unless asked', () => {
    const built = buildDecisions([request('c1')], {
      c1: draft({ choice: 'approve', rememberThread: false }),
    });
    expect(built).toEqual({ decisions: { c1: { decision: 'approve' } } });
    if (!('decisions' in built)) throw new Error('no decisions');
    expect(built.decisions.c1).not.toHaveProperty('remember');
  });

  it('checks edited arguments against the schema of their own call', () => {
    const loose = request('c2', { args_schema: undefined });
    expect(
      buildDecisions([request('c1'), loose], {
        c1: draft({ choice: 'approve' }),
        c2: draft({ choice: 'edit', argsText: '{"anything":true}' }),
      }),
    ).toEqual({
      decisions: { c1: { decision: 'approve' }, c2: { decision: 'edit', args: { anything: true } } },
    });
  });
});
