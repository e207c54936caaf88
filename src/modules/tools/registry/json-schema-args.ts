/** One reason arguments were refused: where (`a.b`, `(root)`) and what. */
export interface ArgumentIssue {
  path: string;
  message: string;
}

/**
 * Arguments described by a JSON Schema kept exactly as its author gave it (the tools of MCP servers):
 * what the model is offered is `jsonSchema`, and `check` is the validator compiled from it.
 */
export class JsonSchemaArgs {
  constructor(
    readonly jsonSchema: Readonly<Record<string, unknown>>,
    private readonly checker: (args: unknown) => ArgumentIssue[],
  ) {}

  /** The issues of `args`; empty when they are valid. */
  check(args: unknown): ArgumentIssue[] {
    return this.checker(args);
  }
}
