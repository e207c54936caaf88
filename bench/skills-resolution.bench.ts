import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { createHttpApp } from '../src/bootstrap/create-http-app.js';
import { parseConfig } from '../src/config/parse-config.js';
import { buildSkillPackage } from '../src/modules/skills/package/skill-package.js';
import { SkillResolution } from '../src/modules/skills/runtime/skill-resolution.js';
import { SkillsStore } from '../src/modules/skills/storage/skills.store.js';
import type { BenchContext } from './support/bench-context.js';
import { createBenchDatabase } from './support/bench-database.js';
import { appEnvironment } from './support/bench-env.js';
import { percentile } from './support/stats.js';

export interface SkillResolutionFigures {
  shared: number;
  chainDepth: number;
  personal: number;
  effective: number;
  rounds: number;
  firstMs: number;
  p50Ms: number;
  p99Ms: number;
}

const CHAINS = 40;
const DEPTH = 5;
const PERSONAL = 20;

const skillMd = (slug: string, deps: string[]) =>
  Buffer.from(
    [
      '---',
      `name: ${slug}`,
      `description: The ${slug} skill.`,
      ...(deps.length > 0 ? [`skill_dependencies: [${deps.join(', ')}]`] : []),
      '---',
      `# ${slug}\n`,
    ].join('\n'),
  );

/**
 * Run-time skill resolution (step 1 of assembly, `SkillResolution.resolveForRun`): 200 shared skills
 * selected (40 dependency chains of depth 5) and 20 personal skills; p50 and p99 over warm rounds
 * (shared skills come from the index; personal SKILL.md files are parsed once and kept by their stamp).
 */
export async function runSkillResolutionBench(
  context: BenchContext,
  rounds = 500,
): Promise<SkillResolutionFigures> {
  const database = await createBenchDatabase();
  const dataDir = join(context.workDir, 'data', database.name);
  await mkdir(dataDir, { recursive: true });
  const env = { ...appEnvironment({ databaseName: database.name, port: 0, dataDir }), APP_ROLE: 'api' };
  const app = await createHttpApp(parseConfig(env));
  await app.init();
  try {
    const [row] = await app
      .get(DataSource)
      .query<{ id: string; role: 'superadmin'; department_id: string }[]>(
        `SELECT id, role, department_id FROM users WHERE role = 'superadmin' LIMIT 1`,
      );
    const actor = { id: row.id, role: row.role, departmentId: row.department_id };
    const store = app.get(SkillsStore);
    context.progress(`skills: installing ${CHAINS * DEPTH} shared skills and ${PERSONAL} personal ones`);
    const selection: string[] = [];
    for (let chain = 0; chain < CHAINS; chain++) {
      let next: string | null = null;
      for (let level = DEPTH - 1; level >= 0; level--) {
        const slug = `bench-c${chain}-l${level}`;
        const pkg = buildSkillPackage([
          { path: 'SKILL.md', content: skillMd(slug, next === null ? [] : [next]) },
        ]);
        await store.installShared(actor, pkg, { version: 2, read_scope: { level: 'global' } });
        selection.push(slug);
        next = slug;
      }
    }
    for (let i = 0; i < PERSONAL; i++) {
      const slug = `bench-personal-${i}`;
      await store.installPersonal(
        actor,
        buildSkillPackage([{ path: 'SKILL.md', content: skillMd(slug, []) }]),
      );
    }
    const resolution = app.get(SkillResolution);
    selection.reverse();
    const started = performance.now();
    const first = await resolution.resolveForRun(actor, selection, []);
    const firstMs = performance.now() - started;
    const expected = CHAINS * DEPTH + PERSONAL;
    if (first.skills.length < expected)
      throw new Error(`resolution found ${first.skills.length} skills, expected ${expected}`);
    context.progress(`skills: ${rounds} resolutions`);
    for (let i = 0; i < 50; i++) await resolution.resolveForRun(actor, selection, []);
    const samples: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const t = performance.now();
      await resolution.resolveForRun(actor, selection, []);
      samples.push(performance.now() - t);
    }
    return {
      shared: CHAINS * DEPTH,
      chainDepth: DEPTH,
      personal: PERSONAL,
      effective: first.skills.length,
      rounds,
      firstMs,
      p50Ms: percentile(samples, 50),
      p99Ms: percentile(samples, 99),
    };
  } finally {
    await app.close();
    await database.drop();
  }
}

export function skillResolutionLines(s: SkillResolutionFigures): string[] {
  return [
    `Skill resolution per run: ${s.shared} shared (chains of depth ${s.chainDepth}), ${s.personal} personal, ` +
      `${s.effective} effective; first ${s.firstMs.toFixed(2)} ms, then over ${s.rounds} rounds ` +
      `p50 ${s.p50Ms.toFixed(2)} ms, p99 ${s.p99Ms.toFixed(2)} ms (target p50 < 5 ms)`,
  ];
}
