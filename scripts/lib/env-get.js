// Usage: node env-get.js NAME DEFAULT — a variable as the app sees it: the environment over .env.
const { existsSync, readFileSync } = require('node:fs');
const { parseEnv } = require('node:util');
const [name, fallback] = process.argv.slice(2);
const fromFile = existsSync('.env') ? parseEnv(readFileSync('.env', 'utf8')) : {};
process.stdout.write(process.env[name] ?? fromFile[name] ?? fallback ?? '');
