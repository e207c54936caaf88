import { strToU8, zipSync } from 'fflate';
import { auth } from '../../support/runs/run-helpers';
import { TestContext, type TestUser } from '../../support/test-app';

/** A skill folder written to the public Agent Skills format, as its repositories publish them. */
const PUBLIC_SKILL_MD = [
  '---',
  'name: pdf-forms',
  'description: Fill and inspect PDF forms. Use when the user hands over a PDF with fields.',
  'license: Proprietary. LICENSE.txt has complete terms',
  'compatibility: Requires python3 and pypdf',
  'metadata:',
  '  author: example-org',
  '  version: "2.1"',
  'allowed-tools: Bash(python3:*) Read',
  '---',
  '',
  '# PDF forms',
  '',
  'Run `scripts/fill.py` with the field values.',
  '',
].join('\n');
const SCRIPT = '#!/usr/bin/env python3\nprint("fill")\n';
const BINARY = Buffer.from([0, 1, 2, 250, 251, 252, 10, 13, 0]);

describe('a skill in the public Agent Skills format', () => {
  let ctx: TestContext;
  let alice: TestUser;

  beforeAll(async () => {
    ctx = await TestContext.start();
    alice = await ctx.newUser();
  });
  afterAll(() => ctx?.close());

  it('installs unchanged from a draft: SKILL.md byte for byte, its extra fields shown, other files kept', async () => {
    const archive = Buffer.from(
      zipSync({
        'pdf-forms/SKILL.md': strToU8(PUBLIC_SKILL_MD),
        'pdf-forms/LICENSE.txt': strToU8('All rights reserved.\n'),
        'pdf-forms/scripts/fill.py': strToU8(SCRIPT),
        'pdf-forms/assets/blank.bin': new Uint8Array(BINARY),
      }),
    );
    const drafted = await ctx.http
      .post('/api/skills/drafts')
      .set(auth(alice))
      .attach('file', archive, 'pdf-forms.zip');
    expect(drafted.status).toBe(201);
    const draft = drafted.body as { id: string; items: { slug: string; version: string }[] };
    expect(draft.items.map((item) => item.slug)).toEqual(['pdf-forms']);

    const confirmed = await ctx.http
      .post(`/api/skills/drafts/${draft.id}/confirm`)
      .set(auth(alice))
      .send({ target: 'personal' });
    expect(confirmed.status).toBe(200);

    const file = await ctx.http.get('/api/skills/pdf-forms/files?path=SKILL.md').set(auth(alice));
    expect(file.status).toBe(200);
    expect((file.body as { content: string }).content).toBe(PUBLIC_SKILL_MD);
    const script = await ctx.http.get('/api/skills/pdf-forms/files?path=scripts/fill.py').set(auth(alice));
    expect((script.body as { content: string }).content).toBe(SCRIPT);

    const detail = await ctx.http.get('/api/skills/pdf-forms').set(auth(alice));
    expect(detail.body).toMatchObject({
      slug: 'pdf-forms',
      source: 'personal',
      license: 'Proprietary. LICENSE.txt has complete terms',
      compatibility: 'Requires python3 and pypdf',
      metadata: { author: 'example-org', version: '2.1' },
      allowed_tools: 'Bash(python3:*) Read',
    });

    const exported = await ctx.http
      .get('/api/skills/pdf-forms/export')
      .set(auth(alice))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(exported.status).toBe(200);
    const { unzipSync } = await import('fflate');
    const files = unzipSync(new Uint8Array(exported.body as Buffer));
    const names = Object.keys(files).map((name) => name.replace(/^pdf-forms\//, ''));
    expect(names).toEqual(
      expect.arrayContaining(['SKILL.md', 'LICENSE.txt', 'scripts/fill.py', 'assets/blank.bin']),
    );
    const blank = Object.entries(files).find(([name]) => name.endsWith('assets/blank.bin'))![1];
    expect(Buffer.from(blank)).toEqual(BINARY);
  });
});
