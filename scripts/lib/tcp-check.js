// Usage: node tcp-check.js HOST PORT TIMEOUT_MS — exits 0 when a TCP connection succeeds.
const net = require('node:net');
const [host, port, timeout] = process.argv.slice(2);
const socket = net.connect({ host, port: Number(port) });
socket.setTimeout(Number(timeout || 1500));
socket.on('connect', () => {
  socket.destroy();
  process.exit(0);
});
socket.on('timeout', () => process.exit(1));
socket.on('error', () => process.exit(1));
