import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config.js';
import { PasswordHasher } from '../../common/crypto/password-hasher.js';
import { DepartmentsRepository } from './departments.repository.js';
import { UserEntity } from './user.entity.js';

/** A fixed key for the advisory lock that makes first-start seeding safe across processes. */
const SEED_LOCK_KEY = 7_314_205_118;

/**
 * First start: the `default` department and the superadmin from ADMIN_USERNAME / ADMIN_PASSWORD.
 * Never overwrites an existing account (changing ADMIN_PASSWORD later changes nothing).
 */
@Injectable()
export class InitialAccounts implements OnApplicationBootstrap {
  private readonly logger = new Logger(InitialAccounts.name);

  constructor(
    private readonly config: AppConfig,
    private readonly departments: DepartmentsRepository,
    private readonly hasher: PasswordHasher,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const department = await this.departments.ensureDefault();
    await this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1)', [SEED_LOCK_KEY]);
      const users = manager.getRepository(UserEntity);
      if ((await users.countBy({ role: 'superadmin' })) > 0) return;
      const { adminUsername, adminPassword } = this.config.auth;
      if (adminPassword === null) {
        this.logger.warn('no superadmin exists and ADMIN_PASSWORD is not set: nobody can log in yet');
        return;
      }
      const taken = await users
        .createQueryBuilder('u')
        .where('lower(u.username) = lower(:name)', { name: adminUsername })
        .getCount();
      if (taken > 0) {
        this.logger.warn({ username: adminUsername }, 'ADMIN_USERNAME belongs to a non-superadmin account');
        return;
      }
      await users.save(
        users.create({
          username: adminUsername,
          passwordHash: await this.hasher.hash(adminPassword.reveal()),
          role: 'superadmin',
          departmentId: department.id,
        }),
      );
      this.logger.log({ username: adminUsername }, 'superadmin created');
    });
  }
}
