import { parseConfig } from '../../../src/config/parse-config';
import { createHttpApp } from '../../../src/bootstrap/create-http-app';
import { TestContext } from '../../support/test-app';
import { baseTestEnvironment, testDatabaseName } from '../../support/test-env';
import { createTestDatabase } from '../../support/test-database';
import { DataSource } from 'typeorm';
import request from 'supertest';

describe('first start', () => {
  it('creates the default department and the superadmin once, and never overwrites it', async () => {
    const ctx = await TestContext.start({ ADMIN_USERNAME: 'boss', ADMIN_PASSWORD: 'first-password' });
    const env = {
      ...baseTestEnvironment(ctx.databaseName),
      ADMIN_USERNAME: 'boss',
      ADMIN_PASSWORD: 'changed-password',
    };
    try {
      const rows = await ctx.dataSource.query(`SELECT username, role FROM users`);
      expect(rows).toEqual([{ username: 'boss', role: 'superadmin' }]);
      const departments = await ctx.dataSource.query(`SELECT name FROM departments`);
      expect(departments).toEqual([{ name: 'default' }]);

      // A second process starting on the same database with another ADMIN_PASSWORD changes nothing.
      const second = await createHttpApp(parseConfig(env));
      await second.init();
      try {
        const old = await request(second.getHttpServer())
          .post('/api/auth/token')
          .send({ username: 'boss', password: 'first-password' });
        expect(old.status).toBe(200);
        const changed = await request(second.getHttpServer())
          .post('/api/auth/token')
          .send({ username: 'boss', password: 'changed-password' });
        expect(changed.status).toBe(401);
        expect(await second.get(DataSource).query(`SELECT count(*)::int AS n FROM users`)).toEqual([
          { n: 1 },
        ]);
      } finally {
        await second.close();
      }
    } finally {
      await ctx.close();
    }
  });

  it('applies pending migrations on start, once, even with two processes starting together', async () => {
    const database = await createTestDatabase();
    const empty = testDatabaseName();
    const admin = new DataSource({ type: 'postgres', url: baseTestEnvironment(database.name).DATABASE_URL });
    await admin.initialize();
    await admin.query(`CREATE DATABASE "${empty}"`);
    await admin.destroy();
    const env = { ...baseTestEnvironment(empty), DB_MIGRATE_ON_START: 'true' };
    try {
      const apps = await Promise.all([createHttpApp(parseConfig(env)), createHttpApp(parseConfig(env))]);
      await Promise.all(apps.map((a) => a.init()));
      const ds = apps[0].get(DataSource);
      const applied = await ds.query(`SELECT name FROM schema_migrations`);
      expect(applied.length).toBeGreaterThan(0);
      expect(new Set(applied.map((r: { name: string }) => r.name)).size).toBe(applied.length);
      expect(await ds.query(`SELECT count(*)::int AS n FROM users WHERE role = 'superadmin'`)).toEqual([
        { n: 1 },
      ]);
      await Promise.all(apps.map((a) => a.close()));
    } finally {
      const cleanup = new DataSource({
        type: 'postgres',
        url: baseTestEnvironment(database.name).DATABASE_URL,
      });
      await cleanup.initialize();
      await cleanup.query(`DROP DATABASE IF EXISTS "${empty}" WITH (FORCE)`);
      await cleanup.destroy();
      await database.drop();
    }
  });
});
