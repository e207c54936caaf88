import { describe, expect, it } from 'vitest';
import type { AgentDetail, ConfigurableItem } from '../src/api/types';
import { changedConfig, configDraft } from '../src/pages/agents/agent-form';
import {
  addRule,
  changeRule,
  invalidRules,
  moveRule,
  removeRule,
  toolSuggestions,
} from '../src/pages/agents/approval-rules';
import {
  chooseAll,
  chooseFixed,
  clearAll,
  hiddenKept,
  selectionDraft,
  submitted,
  toggle,
} from '../src/pages/agents/resource-selection';

describe('resource selection (all / fixed / clear all)', () => {
  const options = ['a', 'b', 'c'];

  it('reads "all" and a fixed list, counting the saved ids the editor cannot see', () => {
    expect(selectionDraft('all', options)).toMatchObject({ mode: 'all', chosen: [], hidden: [] });
    const draft = selectionDraft(['x', 'b', 'y'], options);
    expect(draft).toMatchObject({ mode: 'fixed', chosen: ['b'], hidden: ['x', 'y'] });
    expect(hiddenKept(draft)).toBe(2);
  });

  it('keeps hidden ids first when saving a fixed choice, as the service does', () => {
    const draft = toggle(selectionDraft(['x', 'b'], options), 'a', true);
    expect(submitted(draft)).toEqual(['x', 'b', 'a']);
    expect(submitted(toggle(draft, 'b', false))).toEqual(['x', 'a']);
  });

  it('keeps hidden ids even when every visible one is unticked (only "Clear all" removes them)', () => {
    const draft = toggle(selectionDraft(['x', 'b'], options), 'b', false);
    expect(submitted(draft)).toEqual(['x']);
    expect(hiddenKept(draft)).toBe(1);
  });

  it('"Clear all" saves [] and drops the hidden ids, until something is chosen again', () => {
    const cleared = clearAll(selectionDraft(['x', 'b'], options));
    expect(submitted(cleared)).toEqual([]);
    expect(hiddenKept(cleared)).toBe(0);
    const again = toggle(cleared, 'c', true);
    expect(submitted(again)).toEqual(['x', 'c']);
    expect(hiddenKept(again)).toBe(1);
  });

  it('"All, including new" saves "all", even with every option ticked a fixed list stays fixed', () => {
    expect(submitted(chooseAll(selectionDraft(['x'], options)))).toBe('all');
    let draft = chooseFixed(selectionDraft('all', options));
    for (const value of options) draft = toggle(draft, value, true);
    expect(submitted(draft)).toEqual(['a', 'b', 'c']);
  });
});

describe('approval rules', () => {
  const policy = { default: 'auto' as const, rules: [{ tool: 'execute', decision: 'ask' as const }] };

  it('adds, changes, moves and removes rules without touching the original', () => {
    const two = addRule(policy, { tool: 'mcp:github:*', decision: 'deny' });
    expect(moveRule(two, 1, -1).rules.map((rule) => rule.tool)).toEqual(['mcp:github:*', 'execute']);
    expect(moveRule(two, 0, -1)).toBe(two);
    expect(moveRule(two, 1, 1)).toBe(two);
    expect(changeRule(two, 0, { tool: 'write_file', decision: 'allow' }).rules[0]).toEqual({
      tool: 'write_file',
      decision: 'allow',
    });
    expect(removeRule(two, 0).rules).toEqual([{ tool: 'mcp:github:*', decision: 'deny' }]);
    expect(policy.rules).toHaveLength(1);
  });

  it('names the rules the service would refuse', () => {
    const rules = [
      { tool: 'ok', decision: 'ask' as const },
      { tool: '  ', decision: 'ask' as const },
      { tool: 'x'.repeat(201), decision: 'ask' as const },
      { tool: 'bad\u0007', decision: 'ask' as const },
    ];
    expect(invalidRules({ default: 'auto', rules })).toEqual([2, 3, 4]);
  });

  it('suggests builtin tools by name and MCP servers by their pattern', () => {
    expect(toolSuggestions(['execute'], ['github'])).toEqual(['execute', 'mcp:github:*']);
  });
});

describe('the agent form generated from configurable_items', () => {
  const items: ConfigurableItem[] = [
    { field: 'system_prompt', name: 'System prompt', description: '', type: 'text', default: '' },
    { field: 'max_execution_steps', name: 'Steps', description: '', type: 'integer', default: 100 },
    {
      field: 'tools',
      name: 'Tools',
      description: '',
      type: 'resources',
      default: 'all',
      options: [{ value: 'execute', label: 'execute' }],
    },
    {
      field: 'approval',
      name: 'Approval',
      description: '',
      type: 'approval',
      default: { default: 'auto', rules: [] },
    },
  ];
  const agent = {
    slug: 'a',
    name: 'A',
    description: null,
    config: { system_prompt: 'Be brief.', max_execution_steps: 100, tools: ['hidden_tool', 'execute'] },
    configurable_items: items,
  } as unknown as AgentDetail;

  it('sends nothing when nothing changed (an unsaved approval policy is not sent)', () => {
    expect(changedConfig(agent, configDraft(agent))).toEqual({});
  });

  it('sends only the fields changed, with resource lists merged as the service keeps them', () => {
    const drafts = configDraft(agent);
    drafts.system_prompt = { type: 'text', value: 'Be thorough.' };
    const tools = drafts.tools;
    if (tools.type !== 'resources') throw new Error('tools is a resource field');
    drafts.tools = { type: 'resources', selection: toggle(tools.selection, 'execute', false) };
    drafts.approval = { type: 'approval', policy: { default: 'ask', rules: [] } };
    expect(changedConfig(agent, drafts)).toEqual({
      system_prompt: 'Be thorough.',
      tools: ['hidden_tool'],
      approval: { default: 'ask', rules: [] },
    });
  });

  it('never sends an emptied number field', () => {
    const drafts = configDraft(agent);
    drafts.max_execution_steps = { type: 'integer', value: null };
    expect(changedConfig(agent, drafts)).toEqual({});
  });
});
