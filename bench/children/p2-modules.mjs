/**
 * P2 diagnostic: which modules `import('<specifier>')` loads. ES modules are reported by p2-load-hooks.mjs on
 * stderr; CommonJS modules are read from the require cache afterwards. Prints `{ cjs: [paths] }` on stdout.
 * argv: specifier
 */
import process from 'node:process';
import { createRequire, register } from 'node:module';

register('./p2-load-hooks.mjs', import.meta.url);
await import(process.argv[2]);
const require = createRequire(import.meta.url);
process.stdout.write(`${JSON.stringify({ cjs: Object.keys(require.cache) })}\n`);
