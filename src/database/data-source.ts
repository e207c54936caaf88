import { DataSource } from 'typeorm';
import { loadDatabaseUrlFromProcess } from '../config/load-config.js';
import { buildDataSourceOptions } from './data-source-options.js';

/** For the TypeORM CLI only (`npm run migration:*`, run on the compiled file). */
export default new DataSource(buildDataSourceOptions({ url: loadDatabaseUrlFromProcess(), poolSize: 2 }));
