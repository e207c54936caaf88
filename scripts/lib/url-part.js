// Usage: node url-part.js URL host|port DEFAULT_PORT — prints one part of a URL.
const [raw, part, defaultPort] = process.argv.slice(2);
const url = new URL(raw);
process.stdout.write(part === 'host' ? url.hostname.replace(/^\[|\]$/g, '') : url.port || defaultPort);
