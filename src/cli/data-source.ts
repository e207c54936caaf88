import { DataSource } from 'typeorm';
import { loadDatabaseUrlFromProcess } from '../config/load-config.js';
import { buildDataSourceOptions } from '../database/data-source-options.js';
import { ENTITIES } from '../entities.js';

/** For the TypeORM CLI only (`npm run migration:*`, run on the compiled file). */
export default new DataSource(
  buildDataSourceOptions({ url: loadDatabaseUrlFromProcess(), poolSize: 2 }, ENTITIES),
);
