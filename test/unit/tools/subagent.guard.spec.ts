import { SubagentGuard } from '../../../src/modules/tools/execution/guards/subagent.guard';
import { ToolCallScope } from '../../../src/modules/tools/execution/tool-call-scope';

function scope(name: string, isSubagent: boolean): ToolCallScope {
  return new ToolCallScope(
    { id: 'c', name, args: {} },
    { isSubagent } as ToolCallScope['context'],
    undefined,
  );
}

describe('SubagentGuard', () => {
  it.each(['present_artifacts', 'ask_user_question', 'install_skill', 'subagent_start', 'subagent_await'])(
    'refuses %s in a subagent run and allows it in a normal run',
    (name) => {
      expect(() => new SubagentGuard().canActivate(scope(name, true))).toThrow('Subagents may not use');
      expect(() => new SubagentGuard().canActivate(scope(name, false))).not.toThrow();
    },
  );

  it('allows ordinary tools in subagent runs', () => {
    expect(() => new SubagentGuard().canActivate(scope('read_file', true))).not.toThrow();
  });
});
