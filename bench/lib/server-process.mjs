/** Starts bench/children/fake-server.mjs as a separate process and collects its request summary. */
import process from 'node:process';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { BENCH, ROOT } from './env.mjs';

/**
 * @param {object} spec see bench/children/fake-server.mjs
 * @returns {Promise<{ baseUrl: string, stop: () => Promise<object> }>}
 */
export async function startServerProcess(spec) {
  const child = spawn(
    process.execPath,
    [join(BENCH, 'children', 'fake-server.mjs'), JSON.stringify(spec)],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
  const exited = new Promise((resolve) => child.once('close', resolve));
  const baseUrl = await new Promise((resolve, reject) => {
    const onData = (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl >= 0) {
        child.stdout.off('data', onData);
        try {
          resolve(JSON.parse(out.slice(0, nl)).baseUrl);
        } catch (e) {
          reject(e);
        }
        out = out.slice(nl + 1);
      }
    };
    child.stdout.on('data', onData);
    exited.then((code) =>
      reject(new Error(`fake server exited (${code}) before listening: ${err}`)),
    );
  });
  child.stdout.on('data', (d) => (out += d));
  return {
    baseUrl,
    async stop() {
      child.stdin.end();
      const code = await exited;
      const line = out.trim().split('\n').at(-1);
      if (code !== 0 || !line) throw new Error(`fake server failed (exit ${code}): ${err.trim()}`);
      return JSON.parse(line);
    },
  };
}
