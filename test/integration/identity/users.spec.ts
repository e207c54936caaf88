import { TestContext, type TestUser } from '../../support/test-app';

describe('users and departments', () => {
  let ctx: TestContext;
  let superadmin: TestUser;
  let admin: TestUser;
  let user: TestUser;
  const auth = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });

  beforeAll(async () => {
    ctx = await TestContext.start();
    superadmin = await ctx.newUser({ role: 'superadmin' });
    admin = await ctx.newUser({ role: 'admin' });
    user = await ctx.newUser();
  });
  afterAll(() => ctx.close());

  it('lets an admin create a user who joins the default department and can log in', async () => {
    const res = await ctx.http
      .post('/api/users')
      .set(auth(admin))
      .send({ username: 'carol', password: 'carol-password' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ username: 'carol', role: 'user', disabled: false });
    expect(res.body.department_id).toBe(await ctx.defaultDepartmentId());
    expect(new Date(res.body.created_at).toString()).not.toBe('Invalid Date');
    expect(res.body.password_hash).toBeUndefined();

    const login = await ctx.http
      .post('/api/auth/token')
      .send({ username: 'carol', password: 'carol-password' });
    expect(login.status).toBe(200);
  });

  it('refuses a normal user on admin routes with 403', async () => {
    const create = await ctx.http
      .post('/api/users')
      .set(auth(user))
      .send({ username: 'dave', password: 'dave-password' });
    expect(create.status).toBe(403);
    expect(create.body.code).toBe('auth.forbidden');
    const list = await ctx.http.get('/api/users').set(auth(user));
    expect(list.status).toBe(403);
    const rows = await ctx.dataSource.query(`SELECT 1 FROM users WHERE username = 'dave'`);
    expect(rows).toHaveLength(0);
  });

  it('lets only a superadmin grant admin or superadmin', async () => {
    for (const role of ['admin', 'superadmin']) {
      const denied = await ctx.http
        .post('/api/users')
        .set(auth(admin))
        .send({ username: `by-admin-${role}`, password: 'password-1', role });
      expect(denied.status).toBe(403);
      expect(denied.body.code).toBe('users.role_grant_forbidden');

      const promote = await ctx.http.patch(`/api/users/${user.id}`).set(auth(admin)).send({ role });
      expect(promote.status).toBe(403);
    }
    expect((await ctx.dataSource.query(`SELECT role FROM users WHERE id = $1`, [user.id]))[0].role).toBe(
      'user',
    );

    const granted = await ctx.http
      .post('/api/users')
      .set(auth(superadmin))
      .send({ username: 'new-admin', password: 'password-1', role: 'admin' });
    expect(granted.status).toBe(201);
    expect(granted.body.role).toBe('admin');
  });

  it('keeps admins from changing other admins', async () => {
    const other = await ctx.newUser({ role: 'admin' });
    const res = await ctx.http.patch(`/api/users/${other.id}`).set(auth(admin)).send({ disabled: true });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('users.manage_forbidden');
  });

  it('refuses a duplicate username (case-insensitively) with 409', async () => {
    const res = await ctx.http
      .post('/api/users')
      .set(auth(admin))
      .send({ username: user.username.toUpperCase(), password: 'password-1' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('users.username_taken');
  });

  it('refuses an unknown department with 422 and unknown fields with 400 naming them', async () => {
    const unknown = await ctx.http.post('/api/users').set(auth(admin)).send({
      username: 'erin',
      password: 'password-1',
      department_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.code).toBe('users.unknown_department');

    const extra = await ctx.http
      .post('/api/users')
      .set(auth(admin))
      .send({ username: 'erin', password: 'password-1', is_admin: true, disabled: false });
    expect(extra.status).toBe(400);
    expect(extra.body.code).toBe('common.validation_failed');
    expect(extra.body.details.fields.map((f: { field: string }) => f.field).sort()).toEqual([
      'disabled',
      'is_admin',
    ]);
  });

  it('never disables or demotes the last active superadmin', async () => {
    const ds = ctx.dataSource;
    const [{ count }] = await ds.query(
      `SELECT count(*)::int AS count FROM users WHERE role = 'superadmin' AND NOT disabled`,
    );
    expect(count).toBe(2); // root and the factory's superadmin
    const root = (await ds.query(`SELECT id FROM users WHERE username = 'root'`))[0].id as string;
    expect(
      (await ctx.http.patch(`/api/users/${root}`).set(auth(superadmin)).send({ disabled: true })).status,
    ).toBe(200);
    const last = await ctx.http
      .patch(`/api/users/${superadmin.id}`)
      .set(auth(superadmin))
      .send({ role: 'admin' });
    expect(last.status).toBe(409);
    expect(last.body.code).toBe('users.last_superadmin');
    expect((await ds.query(`SELECT role FROM users WHERE id = $1`, [superadmin.id]))[0].role).toBe(
      'superadmin',
    );
  });

  it('changes a password: the old one stops working, the new one works', async () => {
    const target = await ctx.newUser();
    const res = await ctx.http
      .patch(`/api/users/${target.id}`)
      .set(auth(admin))
      .send({ password: 'brand-new-password' });
    expect(res.status).toBe(200);
    const old = await ctx.http
      .post('/api/auth/token')
      .send({ username: target.username, password: target.password });
    expect(old.status).toBe(401);
    const fresh = await ctx.http
      .post('/api/auth/token')
      .send({ username: target.username, password: 'brand-new-password' });
    expect(fresh.status).toBe(200);
  });

  it('answers 404 for an unknown user id and 400 for a malformed one', async () => {
    const missing = await ctx.http
      .patch('/api/users/00000000-0000-4000-8000-000000000000')
      .set(auth(admin))
      .send({ disabled: true });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('users.not_found');
    const malformed = await ctx.http.patch('/api/users/not-a-uuid').set(auth(admin)).send({ disabled: true });
    expect(malformed.status).toBe(400);
  });

  it('pages through users newest first without repeats or gaps', async () => {
    for (let i = 0; i < 5; i++) await ctx.newUser();
    const total = (await ctx.dataSource.query(`SELECT count(*)::int AS n FROM users`))[0].n as number;
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: { items: { id: string }[]; next_cursor: string | null } } =
        await ctx.http
          .get('/api/users')
          .query(cursor === null ? { limit: 3 } : { limit: 3, cursor })
          .set(auth(admin));
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.items.map((u: { id: string }) => u.id));
      cursor = res.body.next_cursor;
    } while (cursor !== null);
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    const bad = await ctx.http.get('/api/users').query({ limit: 500 }).set(auth(admin));
    expect(bad.status).toBe(400);
  });

  it('creates departments (admin) and lists them (any user)', async () => {
    const denied = await ctx.http.post('/api/departments').set(auth(user)).send({ name: 'Sales' });
    expect(denied.status).toBe(403);
    const created = await ctx.http
      .post('/api/departments')
      .set(auth(admin))
      .send({ name: 'Research', description: 'R&D' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Research', description: 'R&D' });
    const duplicate = await ctx.http.post('/api/departments').set(auth(admin)).send({ name: 'Research' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe('departments.name_taken');

    const list = await ctx.http.get('/api/departments').set(auth(user));
    expect(list.status).toBe(200);
    expect(list.body.items.map((d: { name: string }) => d.name)).toEqual(
      expect.arrayContaining(['default', 'Research']),
    );
    expect(list.body.next_cursor).toBeNull();

    const moved = await ctx.http
      .post('/api/users')
      .set(auth(admin))
      .send({ username: 'frank', password: 'password-1', department_id: created.body.id });
    expect(moved.status).toBe(201);
    expect(moved.body.department_id).toBe(created.body.id);
  });

  it('pages through departments newest first with limit and cursor, like every list', async () => {
    for (let i = 0; i < 5; i++)
      expect(
        (
          await ctx.http
            .post('/api/departments')
            .set(auth(admin))
            .send({ name: `paged-${i}` })
        ).status,
      ).toBe(201);
    const total = (await ctx.dataSource.query(`SELECT count(*)::int AS n FROM departments`))[0].n as number;
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { status: number; body: { items: { name: string }[]; next_cursor: string | null } } =
        await ctx.http
          .get('/api/departments')
          .query(cursor === null ? { limit: 2 } : { limit: 2, cursor })
          .set(auth(user));
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.items.map((d) => d.name));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor !== null && pages < 50);
    expect(pages).toBe(Math.ceil(total / 2));
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    expect(seen.indexOf('paged-4')).toBeLessThan(seen.indexOf('paged-0'));

    expect((await ctx.http.get('/api/departments').query({ limit: 500 }).set(auth(user))).status).toBe(400);
    const badCursor = await ctx.http.get('/api/departments').query({ cursor: 'nope' }).set(auth(user));
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.code).toBe('common.validation_failed');
  });
});
