/**
 * A git smart-HTTP server on loopback for tests and recordings: `git http-backend` (git's own CGI program) behind
 * node:http, serving every repository under a folder, read-only. Clones with `--depth 1`, `git ls-remote` and
 * fetches work as against any git host.
 */
import { execFileSync, spawn } from 'node:child_process';
import { Buffer } from 'node:buffer';
import { createServer } from 'node:http';
import process from 'node:process';
import { URL } from 'node:url';

function backendPath() {
  const execPath = execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim();
  return `${execPath}/git-http-backend`;
}

/** Splits a CGI response into its status, headers and the body that follows the blank line. */
function parseCgi(buffer) {
  let end = buffer.indexOf('\r\n\r\n');
  let skip = 4;
  if (end < 0) {
    end = buffer.indexOf('\n\n');
    skip = 2;
  }
  if (end < 0) return undefined;
  const headers = {};
  let status = 200;
  for (const line of buffer.subarray(0, end).toString('latin1').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10) || 200;
    else headers[name] = value;
  }
  return { status, headers, body: buffer.subarray(end + skip) };
}

/** Starts the server for the repositories under `root` (`http://127.0.0.1:<port>/<name>.git`). */
export async function startGitHttpServer(root) {
  const backend = backendPath();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const child = spawn(backend, [], {
      env: {
        PATH: process.env.PATH ?? '',
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
        REMOTE_ADDR: '127.0.0.1',
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.on('error', () => {
      res.statusCode = 500;
      res.end();
    });
    child.on('close', () => {
      const parsed = parseCgi(Buffer.concat(chunks));
      if (!parsed) {
        res.statusCode = 500;
        res.end();
        return;
      }
      res.writeHead(parsed.status, parsed.headers);
      res.end(parsed.body);
    });
    req.pipe(child.stdin);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
