#!/usr/bin/env node
// Runs @modelcontextprotocol/server-everything in its SSE or Streamable HTTP mode (argv[2]) on 127.0.0.1 and a port
// the OS picks: every `listen` is redirected to loopback port 0, and the chosen port is announced on stderr as
// `LISTENING <port>`. The test that started it reads that line and connects.
import http from 'node:http';
import process from 'node:process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const listen = http.Server.prototype.listen;
http.Server.prototype.listen = function loopbackListen(...args) {
  const callback = args.find((arg) => typeof arg === 'function');
  this.once('listening', () => process.stderr.write(`LISTENING ${this.address().port}\n`));
  return listen.call(this, 0, '127.0.0.1', callback);
};

const require = createRequire(import.meta.url);
const root = dirname(require.resolve('@modelcontextprotocol/server-everything/package.json'));
await import(pathToFileURL(join(root, 'dist', 'index.js')).href);
