import { AgentApprovalPolicies } from '../../../src/modules/agents/index';
import { TestContext, type TestUser } from '../../support/test-app';

interface FieldError {
  field: string;
  messages: string[];
}

describe('agents: config.approval', () => {
  let ctx: TestContext;
  let owner: TestUser;
  let reader: TestUser;
  const auth = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });
  const create = (u: TestUser, body: object) => ctx.http.post('/api/agents').set(auth(u)).send(body);
  const patch = (u: TestUser, slug: string, body: object) =>
    ctx.http.patch(`/api/agents/${slug}`).set(auth(u)).send(body);
  const savedRow = async (slug: string) =>
    (await ctx.dataSource.query(`SELECT id, config FROM agents WHERE slug = $1`, [slug]))[0] as
      { id: string; config: Record<string, unknown> } | undefined;
  const fieldsOf = (body: { details: { fields: FieldError[] } }) =>
    body.details.fields.map((f) => f.field).sort();
  const policies = () => ctx.app.get(AgentApprovalPolicies);

  const policy = {
    default: 'ask',
    rules: [
      { tool: 'read_file', decision: 'allow' },
      { tool: 'mcp:github:*', decision: 'ask' },
      { tool: 'execute', decision: 'deny' },
      { tool: '*', decision: 'allow' },
    ],
  };

  beforeAll(async () => {
    ctx = await TestContext.start();
    owner = await ctx.newUser();
    reader = await ctx.newUser();
  });
  afterAll(() => ctx.close());

  it("lets a normal user set a policy on their own agent, stored and read back as sent, rules' order kept", async () => {
    const res = await create(owner, { name: 'Careful', slug: 'careful', config: { approval: policy } });
    expect(res.status).toBe(201);
    expect(res.body.config.approval).toEqual(policy);
    expect((await savedRow('careful'))?.config.approval).toEqual(policy);

    const read = await ctx.http.get('/api/agents/careful').set(auth(owner));
    expect(read.status).toBe(200);
    expect(read.body.config.approval).toEqual(policy);
    expect(read.body.config.approval.rules.map((r: { tool: string }) => r.tool)).toEqual([
      'read_file',
      'mcp:github:*',
      'execute',
      '*',
    ]);
  });

  it('stores a partial policy without filling in defaults, and no policy when none is sent', async () => {
    const partial = { rules: [{ tool: 'write_*', decision: 'ask' }] };
    expect(
      (await create(owner, { name: 'Partial', slug: 'partial', config: { approval: partial } })).status,
    ).toBe(201);
    expect((await savedRow('partial'))?.config.approval).toEqual(partial);

    const plain = await create(owner, { name: 'Plain', slug: 'plain' });
    expect(plain.status).toBe(201);
    expect(plain.body.config).not.toHaveProperty('approval');
    expect((await savedRow('plain'))?.config).not.toHaveProperty('approval');
  });

  it('replaces the whole policy on PATCH and keeps it when a PATCH does not name it', async () => {
    await create(owner, {
      name: 'Replace',
      slug: 'replace-me',
      config: { approval: policy, system_prompt: 'Hi.' },
    });
    const next = { default: 'allow', rules: [{ tool: 'execute', decision: 'ask' }] };
    const res = await patch(owner, 'replace-me', { config: { approval: next } });
    expect(res.status).toBe(200);
    expect(res.body.config.approval).toEqual(next);
    expect((await savedRow('replace-me'))?.config).toMatchObject({ approval: next, system_prompt: 'Hi.' });

    const onlyDefault = { default: 'auto' };
    expect((await patch(owner, 'replace-me', { config: { approval: onlyDefault } })).status).toBe(200);
    expect((await savedRow('replace-me'))?.config.approval).toEqual(onlyDefault);

    expect((await patch(owner, 'replace-me', { config: { system_prompt: 'Bye.' } })).status).toBe(200);
    expect((await savedRow('replace-me'))?.config).toMatchObject({
      approval: onlyDefault,
      system_prompt: 'Bye.',
    });
  });

  const rule = (tool: unknown, decision: unknown = 'allow') => ({ tool, decision });
  const tooMany = Array.from({ length: 101 }, (_, i) => rule(`tool_${i}`));
  const invalid: [string, unknown, string[]][] = [
    ['101 rules', { rules: tooMany }, ['config.approval.rules']],
    ['an unknown decision', { rules: [rule('read_file', 'maybe')] }, ['config.approval.rules.0.decision']],
    [
      'an empty pattern',
      { rules: [rule('a'), rule('b'), rule('c'), rule('')] },
      ['config.approval.rules.3.tool'],
    ],
    ['a 201-character pattern', { rules: [rule('x'.repeat(201))] }, ['config.approval.rules.0.tool']],
    ['a control character in a pattern', { rules: [rule('read\nfile')] }, ['config.approval.rules.0.tool']],
    ['a NUL in a pattern', { rules: [rule('read\u0000file')] }, ['config.approval.rules.0.tool']],
    ['a rule without a tool', { rules: [{ decision: 'deny' }] }, ['config.approval.rules.0.tool']],
    ['a rule that is not an object', { rules: ['read_file'] }, ['config.approval.rules.0']],
    [
      'an extra key in a rule',
      { rules: [{ ...rule('read_file'), note: 'x' }] },
      ['config.approval.rules.0.note'],
    ],
    ['an extra key in the policy', { default: 'auto', mode: 'strict' }, ['config.approval.mode']],
    ['an unknown default', { default: 'never' }, ['config.approval.default']],
    ['rules that are not an array', { rules: { tool: 'x', decision: 'ask' } }, ['config.approval.rules']],
    ['a string', 'ask', ['config.approval']],
    ['null', null, ['config.approval']],
  ];

  it.each(invalid)('refuses %s on create with 400 naming the path', async (_label, approval, fields) => {
    const res = await create(owner, { name: 'Invalid', slug: 'invalid-approval', config: { approval } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('common.validation_failed');
    expect(fieldsOf(res.body)).toEqual(fields);
    expect(await savedRow('invalid-approval')).toBeUndefined();
  });

  describe('on PATCH', () => {
    beforeAll(() => ctx.newAgent(owner, { slug: 'patched-invalid', config: { approval: policy } }));

    it.each(invalid)(
      'refuses %s with 400 naming the path, changing nothing',
      async (_label, approval, fields) => {
        const res = await patch(owner, 'patched-invalid', { config: { approval } });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('common.validation_failed');
        expect(fieldsOf(res.body)).toEqual(fields);
        expect((await savedRow('patched-invalid'))?.config.approval).toEqual(policy);
      },
    );
  });

  it('refuses an array as not an object (its items are then checked as policies too)', async () => {
    const res = await create(owner, {
      name: 'Array',
      slug: 'array-approval',
      config: { approval: [rule('x')] },
    });
    expect(res.status).toBe(400);
    const approval = (res.body.details.fields as FieldError[]).find((f) => f.field === 'config.approval');
    expect(approval?.messages).toContain('approval must be an object');
    expect(await savedRow('array-approval')).toBeUndefined();
  });

  it('tells the client what is wrong in words', async () => {
    const res = await create(owner, {
      name: 'Words',
      config: { approval: { default: 'never', rules: [rule(''), rule('x', 'maybe')] } },
    });
    const messages = Object.fromEntries(
      (res.body.details.fields as FieldError[]).map((f) => [f.field, f.messages]),
    );
    expect(messages).toEqual({
      'config.approval.default': ['default must be one of auto, ask, allow'],
      'config.approval.rules.0.tool': ['tool must not be empty'],
      'config.approval.rules.1.decision': ['decision must be one of allow, ask, deny'],
    });
  });

  it('accepts exactly 100 rules and a 200-character pattern', async () => {
    const hundred = Array.from({ length: 100 }, (_, i) => rule(i === 0 ? 'y'.repeat(200) : `tool_${i}`));
    const res = await create(owner, {
      name: 'Full',
      slug: 'full-policy',
      config: { approval: { rules: hundred } },
    });
    expect(res.status).toBe(201);
    expect((await savedRow('full-policy'))?.config.approval).toEqual({ rules: hundred });
  });

  describe('an agent shared with a reader who may not manage it', () => {
    beforeAll(async () => {
      await ctx.newAgent(owner, {
        slug: 'read-only',
        config: { approval: policy },
        share_config: { version: 2, read_scope: { level: 'users', user_ids: [owner.id, reader.id] } },
      });
    });

    it('refuses the reader a PATCH of the policy with 403 and keeps it', async () => {
      const res = await patch(reader, 'read-only', { config: { approval: { default: 'allow' } } });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('agents.manage_forbidden');
      expect((await savedRow('read-only'))?.config.approval).toEqual(policy);
    });

    it('shows the reader the policy but not the approval item; the manager gets the item', async () => {
      const asReader = await ctx.http.get('/api/agents/read-only').set(auth(reader));
      expect(asReader.body.permission).toBe('read');
      expect(asReader.body.config.approval).toEqual(policy);
      expect(asReader.body.configurable_items).toEqual([]);

      const asOwner = await ctx.http.get('/api/agents/read-only').set(auth(owner));
      const item = asOwner.body.configurable_items.find((i: { field: string }) => i.field === 'approval');
      expect(item).toEqual({
        field: 'approval',
        name: expect.any(String),
        description: expect.any(String),
        type: 'approval',
        default: { default: 'auto', rules: [] },
      });
    });
  });

  describe('AgentApprovalPolicies', () => {
    const policyOf = async (slug: string) => {
      const row = (await savedRow(slug))!;
      return policies().of({ id: row.id, config: row.config });
    };

    it('reads an agent’s policy from its saved config, parsed with the schema', async () => {
      await expect(policyOf('careful')).resolves.toEqual(policy);
      // Omitted fields are filled in by the schema, not stored.
      await expect(policyOf('partial')).resolves.toEqual({
        default: 'auto',
        rules: [{ tool: 'write_*', decision: 'ask' }],
      });
    });

    it('returns the default when the agent sets none or holds an unparsable value', async () => {
      const defaults = { default: 'auto', rules: [] };
      await expect(policyOf('plain')).resolves.toEqual(defaults);

      await ctx.newAgent(owner, { slug: 'corrupt' });
      await ctx.dataSource.query(
        `UPDATE agents SET config = jsonb_set(config, '{approval}', '{"default":"sometimes"}') WHERE slug = 'corrupt'`,
      );
      await expect(policyOf('corrupt')).resolves.toEqual(defaults);
    });

    it('hands out a copy of the default: changing one changes no other', async () => {
      const first = await policyOf('plain');
      first.rules.push({ tool: 'execute', decision: 'deny' });
      await expect(policyOf('plain')).resolves.toEqual({ default: 'auto', rules: [] });
    });
  });

  it('documents config.approval in the Swagger document', async () => {
    const res = await ctx.http.get('/api/docs-json');
    expect(res.status).toBe(200);
    const schemas = res.body.components.schemas;
    expect(schemas.AgentConfigDto.properties.approval).toMatchObject({
      allOf: [{ $ref: '#/components/schemas/ApprovalPolicyDto' }],
      description: expect.stringContaining('"default":"auto"'),
    });
    expect(schemas.ApprovalPolicyDto.properties).toMatchObject({
      default: { enum: ['auto', 'ask', 'allow'] },
      rules: { type: 'array', maxItems: 100, items: { $ref: '#/components/schemas/ApprovalRuleDto' } },
    });
    expect(schemas.ApprovalRuleDto.properties).toMatchObject({
      tool: { type: 'string', minLength: 1, maxLength: 200 },
      decision: { enum: ['allow', 'ask', 'deny'] },
    });
    expect(schemas.ApprovalRuleDto.required).toEqual(expect.arrayContaining(['tool', 'decision']));
  });
});
