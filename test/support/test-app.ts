import type { Type } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';
import { createHttpApp } from '../../src/bootstrap/create-http-app';
import type { UserRole } from '../../src/common/auth/user-role';
import type { ShareConfigInput } from '../../src/common/sharing/resolve-share-config';
import { PasswordHasher } from '../../src/common/crypto/password-hasher';
import type { AppConfig } from '../../src/config/app-config';
import { parseConfig } from '../../src/config/parse-config';
import { buildSkillPackage } from '../../src/modules/skills/package/skill-package';
import { SkillsStore } from '../../src/modules/skills/storage/skills.store';
import { DepartmentEntity } from '../../src/modules/users/department.entity';
import { UserEntity } from '../../src/modules/users/user.entity';
import { auth } from './runs/run-helpers';
import { createTestDatabase } from './test-database';
import { baseTestEnvironment } from './test-env';

export interface TestUser {
  id: string;
  username: string;
  password: string;
  role: UserRole;
  departmentId: string;
  /** A JWT for this user. */
  token: string;
}

/** What an agent is created with (`POST /api/agents`); a name is made up when none is given. */
export interface NewAgentBody {
  name?: string;
  slug?: string;
  config?: Record<string, unknown>;
  [field: string]: unknown;
}

/** A skill's files by path (`SKILL.md` at least). */
export type SkillFiles = Record<string, string | Buffer>;

export interface NewUserOptions {
  role?: UserRole;
  username?: string;
  password?: string;
  departmentId?: string;
  disabled?: boolean;
}

const skillPackageOf = (files: SkillFiles) =>
  buildSkillPackage(
    Object.entries(files).map(([path, content]) => ({
      path,
      content: typeof content === 'string' ? Buffer.from(content) : content,
    })),
  );

/**
 * One booted application per test file: its own database cloned from the template, its own Redis
 * namespace, the production HTTP setup (`createHttpApp`). The `new*` factories are the one way a test
 * makes a thing: users as rows, the rest through the API or the store their owner module uses.
 */
export class TestContext {
  private readonly hasher: PasswordHasher;
  private constructor(
    private current: NestExpressApplication,
    readonly config: AppConfig,
    readonly databaseName: string,
    private readonly dropDatabase: () => Promise<void>,
  ) {
    this.hasher = new PasswordHasher(config.auth.passwordHashLogN);
  }

  /** `overrides` may be computed from the base environment (e.g. to route DATABASE_URL through a relay). */
  static async start(
    overrides: Record<string, string> | ((base: Record<string, string>) => Record<string, string>) = {},
    extraModules: Type[] = [],
  ): Promise<TestContext> {
    const database = await createTestDatabase();
    const base = baseTestEnvironment(database.name);
    const config = parseConfig({
      ...base,
      ...(typeof overrides === 'function' ? overrides(base) : overrides),
    });
    try {
      const app = await createHttpApp(config, { extraModules });
      await app.init();
      return new TestContext(app, config, database.name, database.drop);
    } catch (error) {
      await database.drop();
      throw error;
    }
  }

  get app(): NestExpressApplication {
    return this.current;
  }

  /** Stops the application and boots a new one on the same database and Redis namespace (a restart). */
  async restart(extraModules: Type[] = []): Promise<void> {
    await this.current.close();
    this.current = await createHttpApp(this.config, { extraModules });
    await this.current.init();
  }

  get http(): TestAgent {
    return request(this.app.getHttpServer());
  }

  get dataSource(): DataSource {
    return this.app.get(DataSource);
  }

  async defaultDepartmentId(): Promise<string> {
    const department = await this.dataSource
      .getRepository(DepartmentEntity)
      .findOneByOrFail({ name: 'default' });
    return department.id;
  }

  async newUser(options: NewUserOptions = {}): Promise<TestUser> {
    const password = options.password ?? `pw-${randomBytes(6).toString('hex')}`;
    const username = options.username ?? `user-${randomBytes(5).toString('hex')}`;
    const role = options.role ?? 'user';
    const departmentId = options.departmentId ?? (await this.defaultDepartmentId());
    const users = this.dataSource.getRepository(UserEntity);
    const user = await users.save(
      users.create({
        username,
        passwordHash: await this.hasher.hash(password),
        role,
        departmentId,
        disabled: options.disabled ?? false,
      }),
    );
    const login = await this.http.post('/api/auth/token').send({ username, password });
    const token = options.disabled ? '' : (login.body as { access_token: string }).access_token;
    return { id: user.id, username, password, role, departmentId, token };
  }

  /** An agent of `owner`. */
  async newAgent(owner: TestUser, body: NewAgentBody = {}): Promise<{ id: string; slug: string }> {
    const name = body.name ?? `Agent ${randomBytes(4).toString('hex')}`;
    const res = await this.http
      .post('/api/agents')
      .set(auth(owner))
      .send({ ...body, name });
    if (res.status !== 201) throw new Error(`agent not created: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: string; slug: string };
  }

  /** A thread of `user` on the agent `agentSlug`; returns its id. */
  async newThread(user: TestUser, agentSlug = 'default-chatbot'): Promise<string> {
    const res = await this.http.post('/api/threads').set(auth(user)).send({ agent_slug: agentSlug });
    if (res.status !== 201) throw new Error(`thread not created: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { id: string }).id;
  }

  /** A knowledge base created by `owner` (an admin; default share config unless given); returns its id. */
  async newKb(owner: TestUser, body: Record<string, unknown> = {}): Promise<string> {
    const res = await this.http
      .post('/api/knowledge-bases')
      .set(auth(owner))
      .send({ name: 'Handbook', ...body });
    if (res.status !== 201) throw new Error(`kb not created: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { kb_id: string }).kb_id;
  }

  /** An MCP server record made by `admin` (streamable HTTP, named after its slug unless given). */
  async newMcpServer(
    admin: TestUser,
    body: { slug: string; url: string; [field: string]: unknown },
  ): Promise<void> {
    const res = await this.http
      .post('/api/system/mcp-servers')
      .set(auth(admin))
      .send({ name: body.slug, transport: 'streamable_http', ...body });
    if (res.status !== 201) throw new Error(`server not created: ${res.status} ${JSON.stringify(res.body)}`);
  }

  /** A shared skill installed through the store the install flows use; returns its slug. */
  newSharedSkill(owner: TestUser, files: SkillFiles, shareConfig?: ShareConfigInput): Promise<string> {
    return this.app.get(SkillsStore).installShared(owner, skillPackageOf(files), shareConfig);
  }

  /** A personal skill of `user`; returns its slug. */
  newPersonalSkill(user: TestUser, files: SkillFiles): Promise<string> {
    return this.app.get(SkillsStore).installPersonal(user, skillPackageOf(files));
  }

  async close(): Promise<void> {
    await this.app.close();
    await this.dropDatabase();
  }
}
