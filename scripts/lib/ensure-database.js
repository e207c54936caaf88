// Usage: node ensure-database.js DATABASE_URL — creates the database when it does not exist.
const { Client } = require('pg');
const target = new URL(process.argv[2]);
const name = decodeURIComponent(target.pathname.slice(1));
const admin = new URL(target);
admin.pathname = '/postgres';
(async () => {
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (found.rowCount === 0) {
    await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    process.stderr.write(`created database ${name}\n`);
  }
  await client.end();
})().catch((error) => {
  process.stderr.write(`could not prepare the database: ${error.message}\n`);
  process.exit(1);
});
