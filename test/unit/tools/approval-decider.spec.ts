import { ApprovalDecider, type ApprovalSubject } from '../../../src/modules/tools/approval/approval-decider';
import type { ApprovalPolicy } from '../../../src/modules/tools/approval/approval-policy';
import type { McpToolAnnotations } from '../../../src/modules/tools/approval/tool-side-effects';

const NOTHING_REMEMBERED: ReadonlySet<string> = new Set();

const builtin = (name: string, sideEffects: ApprovalSubject['sideEffects'] = 'none'): ApprovalSubject => ({
  name,
  base: false,
  sideEffects,
});

const mcpTool = (server: string, name: string, annotations?: McpToolAnnotations): ApprovalSubject => ({
  name,
  base: false,
  // What the MCP loader gives an MCP tool without a read-only hint: the server is outside this service.
  sideEffects: 'external',
  mcp: annotations === undefined ? { server } : { server, annotations },
});

const decider = (policy: Partial<ApprovalPolicy>) =>
  new ApprovalDecider({ default: 'auto', rules: [], ...policy });

const decide = (
  policy: Partial<ApprovalPolicy>,
  subject: ApprovalSubject,
  remembered: ReadonlySet<string> = NOTHING_REMEMBERED,
) => decider(policy).decide(subject, remembered);

describe('ApprovalDecider', () => {
  describe('base tools', () => {
    it.each(['ask_user_question', 'mark_for_improvement'])(
      'allows %s even when a rule `*` denies everything',
      (name) => {
        const verdict = decide(
          { default: 'ask', rules: [{ tool: '*', decision: 'deny' }] },
          { name, base: true, sideEffects: 'none' },
        );
        expect(verdict).toMatchObject({ decision: 'allow', decidedBy: 'base' });
      },
    );

    it('allows a base tool whatever its side effects, under every default', () => {
      for (const policyDefault of ['auto', 'ask', 'allow'] as const)
        expect(
          decide(
            { default: policyDefault, rules: [{ tool: 'ask_user_question', decision: 'ask' }] },
            { name: 'ask_user_question', base: true, sideEffects: 'execute' },
          ),
        ).toMatchObject({ decision: 'allow', decidedBy: 'base' });
    });
  });

  describe('rules', () => {
    it('lets the first matching rule decide, so their order matters', () => {
      const denyFirst = [
        { tool: 'write_*', decision: 'deny' as const },
        { tool: 'write_file', decision: 'allow' as const },
      ];
      expect(decide({ rules: denyFirst }, builtin('write_file'))).toMatchObject({
        decision: 'deny',
        decidedBy: 'rule:1',
      });
      expect(decide({ rules: [...denyFirst].reverse() }, builtin('write_file'))).toMatchObject({
        decision: 'allow',
        decidedBy: 'rule:1',
      });
    });

    it('numbers the deciding rule from 1 and names its pattern in the reason', () => {
      const verdict = decide(
        {
          rules: [
            { tool: 'read_file', decision: 'allow' },
            { tool: 'mcp:github:*', decision: 'deny' },
            { tool: 'execute', decision: 'ask' },
            { tool: '*', decision: 'allow' },
          ],
        },
        builtin('execute', 'execute'),
      );
      expect(verdict.decision).toBe('ask');
      expect(verdict.decidedBy).toBe('rule:3');
      expect(verdict.reason).toContain('"execute"');
    });

    it('reports each rule by its own number', () => {
      const rules = ['a', 'b', 'c', 'd', 'e'].map((tool) => ({ tool, decision: 'deny' as const }));
      for (const [index, tool] of ['a', 'b', 'c', 'd', 'e'].entries())
        expect(decide({ rules }, builtin(tool)).decidedBy).toBe(`rule:${index + 1}`);
    });

    it('falls back to the default when no rule matches', () => {
      const rules = [
        { tool: 'read_*', decision: 'allow' as const },
        { tool: 'mcp:*', decision: 'deny' as const },
      ];
      expect(decide({ default: 'ask', rules }, builtin('write_file'))).toMatchObject({
        decision: 'ask',
        decidedBy: 'default',
      });
      expect(decide({ default: 'allow', rules }, builtin('write_file'))).toMatchObject({
        decision: 'allow',
        decidedBy: 'default',
      });
    });

    it('applies `default: "ask"` and `"allow"` whatever the side effects', () => {
      for (const sideEffects of ['none', 'workspace', 'external', 'execute'] as const) {
        expect(decide({ default: 'ask' }, builtin('t', sideEffects))).toMatchObject({
          decision: 'ask',
          decidedBy: 'default',
        });
        expect(decide({ default: 'allow' }, builtin('t', sideEffects))).toMatchObject({
          decision: 'allow',
          decidedBy: 'default',
        });
      }
      expect(
        decide({ default: 'allow' }, mcpTool('fs', 'delete_file', { destructiveHint: true })),
      ).toMatchObject({ decision: 'allow', decidedBy: 'default' });
    });
  });

  describe('the auto default', () => {
    it('asks about a tool that runs a command and allows the other builtin side effects', () => {
      expect(decide({}, builtin('execute', 'execute'))).toMatchObject({ decision: 'ask', decidedBy: 'auto' });
      for (const sideEffects of ['none', 'workspace', 'external'] as const)
        expect(decide({}, builtin('t', sideEffects))).toMatchObject({ decision: 'allow', decidedBy: 'auto' });
    });

    it('asks about an MCP tool its server marks destructive, naming the server', () => {
      const verdict = decide({}, mcpTool('fs', 'delete_file', { destructiveHint: true }));
      expect(verdict).toMatchObject({ decision: 'ask', decidedBy: 'auto' });
      expect(verdict.reason).toContain('"fs"');
    });

    it.each<[string, McpToolAnnotations | undefined]>([
      ['destructiveHint false', { destructiveHint: false }],
      ['no annotations', undefined],
      ['annotations without destructiveHint', { title: 'Delete' }],
      ['destructiveHint as the string "true"', { destructiveHint: 'true' }],
      ['destructiveHint as 1', { destructiveHint: 1 }],
      ['destructiveHint as null', { destructiveHint: null }],
    ])('allows an MCP tool with %s', (_label, annotations) => {
      expect(decide({}, mcpTool('fs', 'delete_file', annotations))).toMatchObject({
        decision: 'allow',
        decidedBy: 'auto',
      });
    });

    it('ignores readOnlyHint: it neither spares a destructive tool nor flags a harmless one', () => {
      expect(
        decide({}, mcpTool('fs', 'delete_file', { readOnlyHint: true, destructiveHint: true })),
      ).toMatchObject({ decision: 'ask', decidedBy: 'auto' });
      expect(decide({}, mcpTool('fs', 'list', { readOnlyHint: false }))).toMatchObject({
        decision: 'allow',
        decidedBy: 'auto',
      });
      expect(
        decide({}, { ...mcpTool('sh', 'run', { readOnlyHint: true }), sideEffects: 'execute' }),
      ).toMatchObject({ decision: 'ask', decidedBy: 'auto' });
    });

    it('only applies when no rule matched', () => {
      const rules = [{ tool: 'execute', decision: 'allow' as const }];
      expect(decide({ rules }, builtin('execute', 'execute'))).toMatchObject({
        decision: 'allow',
        decidedBy: 'rule:1',
      });
    });
  });

  describe('MCP tools are matched as mcp:<server>:<tool>', () => {
    it('does not match an MCP tool with a rule naming a builtin of the same name', () => {
      const rules = [{ tool: 'write_file', decision: 'deny' as const }];
      expect(decide({ rules }, mcpTool('fs', 'write_file'))).toMatchObject({
        decision: 'allow',
        decidedBy: 'auto',
      });
      expect(decide({ rules }, builtin('write_file'))).toMatchObject({
        decision: 'deny',
        decidedBy: 'rule:1',
      });
    });

    it('matches it with its full name, and only on its own server', () => {
      const rules = [{ tool: 'mcp:fs:write_file', decision: 'deny' as const }];
      expect(decide({ rules }, mcpTool('fs', 'write_file'))).toMatchObject({
        decision: 'deny',
        decidedBy: 'rule:1',
      });
      expect(decide({ rules }, mcpTool('fs2', 'write_file')).decidedBy).toBe('auto');
      expect(decide({ rules }, builtin('write_file')).decidedBy).toBe('auto');
    });

    it('matches server and tool globs', () => {
      const rules = [
        { tool: '*:delete_*', decision: 'deny' as const },
        { tool: 'mcp:github:*', decision: 'ask' as const },
      ];
      expect(decide({ rules }, mcpTool('github', 'delete_repo')).decidedBy).toBe('rule:1');
      expect(decide({ rules }, mcpTool('github', 'create_issue')).decidedBy).toBe('rule:2');
      expect(decide({ rules }, mcpTool('gitlab', 'create_issue')).decidedBy).toBe('auto');
      // A builtin name has no colon: `*:delete_*` does not reach it.
      expect(decide({ rules }, builtin('delete_file')).decidedBy).toBe('auto');
    });
  });

  describe('tools remembered for the thread', () => {
    it('turns an ask into an allow, whether a rule, the default or auto asked', () => {
      const remembered = new Set(['execute', 'mcp:fs:delete_file']);
      const thread = { decision: 'allow', decidedBy: 'thread' };
      expect(
        decide({ rules: [{ tool: 'execute', decision: 'ask' }] }, builtin('execute', 'execute'), remembered),
      ).toMatchObject(thread);
      expect(decide({ default: 'ask' }, builtin('execute', 'execute'), remembered)).toMatchObject(thread);
      expect(decide({}, builtin('execute', 'execute'), remembered)).toMatchObject(thread);
      expect(decide({}, mcpTool('fs', 'delete_file', { destructiveHint: true }), remembered)).toMatchObject(
        thread,
      );
    });

    it('never turns a deny into an allow', () => {
      const verdict = decide(
        { rules: [{ tool: 'execute', decision: 'deny' }] },
        builtin('execute', 'execute'),
        new Set(['execute']),
      );
      expect(verdict).toMatchObject({ decision: 'deny', decidedBy: 'rule:1' });
    });

    it('leaves an allow as it was decided', () => {
      expect(decide({ default: 'allow' }, builtin('execute', 'execute'), new Set(['execute']))).toMatchObject(
        {
          decision: 'allow',
          decidedBy: 'default',
        },
      );
    });

    it('applies only to the tool remembered: not another server’s tool of the same name', () => {
      const remembered = new Set(['mcp:fs:delete_file']);
      const policy = { default: 'ask' as const };
      expect(decide(policy, mcpTool('fs', 'delete_file'), remembered).decidedBy).toBe('thread');
      expect(decide(policy, mcpTool('other', 'delete_file'), remembered)).toMatchObject({
        decision: 'ask',
        decidedBy: 'default',
      });
      expect(decide(policy, builtin('delete_file'), remembered)).toMatchObject({
        decision: 'ask',
        decidedBy: 'default',
      });
    });

    it('does not let a remembered builtin name approve an MCP tool of that name', () => {
      expect(decide({ default: 'ask' }, mcpTool('fs', 'execute'), new Set(['execute']))).toMatchObject({
        decision: 'ask',
        decidedBy: 'default',
      });
    });
  });

  it('decides with the auto default and no rules when built without a policy', () => {
    const verdict = new ApprovalDecider().decide(builtin('execute', 'execute'), NOTHING_REMEMBERED);
    expect(verdict).toMatchObject({ decision: 'ask', decidedBy: 'auto' });
    expect(new ApprovalDecider().decide(builtin('read_file'), NOTHING_REMEMBERED)).toMatchObject({
      decision: 'allow',
      decidedBy: 'auto',
    });
  });
});
