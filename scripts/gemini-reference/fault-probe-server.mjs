/* global process, setTimeout */
/**
 * A loopback stand-in for the Gemini API that answers every request with one fault, used to record how the real
 * `gemini` CLI behaves (test/faults/fixtures/gemini-0.61-faults.json):
 *
 *   node scripts/gemini-reference/fault-probe-server.mjs <400key|401|403|500|empty|nofinish|blocked|reset> <port>
 *   GEMINI_API_KEY=fake GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:<port> GEMINI_CLI_TRUST_WORKSPACE=true \
 *     HOME=$tmp GEMINI_CLI_HOME=$tmp gemini -m gemini-2.5-flash -p hi -o text; echo $?
 *
 * (with `{"security":{"auth":{"selectedType":"gemini-api-key"}}}` in $tmp/.gemini/settings.json). For
 * "connection refused" no server runs at all.
 */
import { createServer } from 'node:http';
const mode = process.argv[2];
const port = Number(process.argv[3]);
const bodies = {
  '400key': [
    400,
    {
      error: {
        code: 400,
        message: 'API key not valid. Please pass a valid API key.',
        status: 'INVALID_ARGUMENT',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'API_KEY_INVALID',
            domain: 'googleapis.com',
            metadata: { service: 'generativelanguage.googleapis.com' },
          },
        ],
      },
    },
  ],
  401: [
    401,
    {
      error: {
        code: 401,
        message: 'Request had invalid authentication credentials.',
        status: 'UNAUTHENTICATED',
      },
    },
  ],
  403: [
    403,
    {
      error: {
        code: 403,
        message: "Method doesn't allow unregistered callers.",
        status: 'PERMISSION_DENIED',
      },
    },
  ],
  500: [500, { error: { code: 500, message: 'Internal error', status: 'INTERNAL' } }],
};
let n = 0;
createServer((req, res) => {
  n++;
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    process.stderr.write(`req ${n} ${req.method} ${req.url}\n`);
    if (mode === 'empty') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end();
      return;
    }
    if (mode === 'nofinish') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        'data: ' +
          JSON.stringify({
            candidates: [{ content: { role: 'model', parts: [{ text: 'partial' }] } }],
          }) +
          '\r\n\r\n',
      );
      return;
    }
    if (mode === 'blocked') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        'data: ' + JSON.stringify({ promptFeedback: { blockReason: 'SAFETY' } }) + '\r\n\r\n',
      );
      return;
    }
    if (mode === 'reset') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(
        'data: ' +
          JSON.stringify({
            candidates: [{ content: { role: 'model', parts: [{ text: 'partial' }] } }],
          }) +
          '\r\n\r\n',
      );
      setTimeout(() => req.socket.destroy(), 20);
      return;
    }
    const [status, b] = bodies[mode];
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(b));
  });
}).listen(port, '127.0.0.1');
