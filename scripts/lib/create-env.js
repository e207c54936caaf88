// Writes .env from .env.example with fresh secrets and a generated superadmin password (printed once).
const { randomBytes } = require('node:crypto');
const { readFileSync, writeFileSync, existsSync } = require('node:fs');

if (existsSync('.env')) process.exit(0);
const password = randomBytes(12).toString('base64url');
const text = readFileSync('.env.example', 'utf8')
  .replace(/^JWT_SECRET=.*$/m, `JWT_SECRET=${randomBytes(32).toString('hex')}`)
  .replace(/^SECRETS_KEY=.*$/m, `SECRETS_KEY=${randomBytes(32).toString('base64')}`)
  .replace(/^# ADMIN_PASSWORD=.*$/m, `ADMIN_PASSWORD=${password}`);
writeFileSync('.env', text, { mode: 0o600 });
process.stderr.write(
  `\nCreated .env with fresh secrets. The superadmin is "admin" with password: ${password}\n` +
    '(also in .env as ADMIN_PASSWORD; it is only used when the first superadmin is created)\n\n',
);
