/** Module-loader hooks for p2-modules.mjs: reports every ES module loaded, one `LOAD <url>` line on stderr. */
import process from 'node:process';

export async function load(url, context, next) {
  if (!url.startsWith('node:')) process.stderr.write(`LOAD ${url}\n`);
  return next(url, context);
}
