/**
 * P4 client: the gemini-cli JSONL file store in a temp GEMINI_CLI_HOME.
 *   append <home> <cwd> <rounds>  appends one message at a time (awaited, as the loop does) to three sessions in
 *                                  interleaved rounds: a small one (≤ 20 messages), one around 1,000 and one around
 *                                  10,000 messages; prints the wall time of every measured append
 *   resume <home> <cwd> <id>      reopens the session (fresh process, cold) and prints the time it took
 *   parse <file>                  the floor for the format: reads the session file and JSON.parse-s every line
 * Uses the public API when it exports the file persistence, else the built module dist/sessions.
 */
import process from 'node:process';
import { randomUUID } from 'node:crypto';

const [mode, home, cwd, arg] = process.argv.slice(2);
if (mode !== 'parse') process.env.GEMINI_CLI_HOME = home;

const api = 'gemini-agent-sdk/sessions (public)';
const { createFilePersistence } = await import('gemini-agent-sdk/sessions');

/** The i-th message of a realistic conversation: prompt → tool call → tool result → answer, repeating. */
function entry(i) {
  const timestamp = new Date(Date.UTC(2026, 0, 1, 0, 0, 0, i)).toISOString();
  const cycle = Math.floor(i / 4);
  const callId = `call-${cycle}`;
  const usage = { promptTokenCount: 1000 + i, candidatesTokenCount: 40, totalTokenCount: 1040 + i };
  switch (i % 4) {
    case 0:
      return {
        kind: 'user',
        timestamp,
        content: {
          role: 'user',
          parts: [
            {
              text: `Question ${cycle}: what is in file src/module-${cycle}.ts? Summarise it briefly.`,
            },
          ],
        },
      };
    case 1:
      return {
        kind: 'model',
        timestamp,
        model: 'gemini-2.5-flash',
        usage,
        content: {
          role: 'model',
          parts: [
            {
              functionCall: {
                id: callId,
                name: 'read_file',
                args: { path: `src/module-${cycle}.ts` },
              },
            },
          ],
        },
      };
    case 2: {
      const output = `export function module${cycle}() {\n  return ${cycle};\n}\n`.repeat(3);
      const responseParts = [
        { functionResponse: { id: callId, name: 'read_file', response: { output } } },
      ];
      return {
        kind: 'tool_results',
        timestamp,
        content: { role: 'user', parts: responseParts },
        responses: [
          { callId, name: 'read_file', responseParts, resultDisplay: output, durationMs: 1 },
        ],
      };
    }
    default:
      return {
        kind: 'model',
        timestamp,
        model: 'gemini-2.5-flash',
        usage,
        content: {
          role: 'model',
          parts: [
            {
              text: `src/module-${cycle}.ts exports one function, module${cycle}(), which returns the number ${cycle}. Nothing else is in the file.`,
            },
          ],
        },
      };
  }
}

/** Opens a new session and appends messages `from`…`to − 1`; returns the open log and its id. */
async function openWith(persistence, from, to, timings) {
  const id = randomUUID();
  const log = await persistence.open(id, { resume: false, cwd });
  for (let i = from; i < to; i++) await timedAppend(log, i, timings);
  return { id, log, next: to };
}

async function timedAppend(log, i, timings) {
  const e = entry(i);
  const t0 = process.hrtime.bigint();
  await log.append(e);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  timings?.push(ms);
  return ms;
}

if (mode === 'append') {
  // Measures the append cost at three session sizes in interleaved rounds (small, ~1k, ~10k), so a burst of
  // load from other processes hits all three alike. The small session is replaced every SMALL messages.
  const rounds = Number(arg);
  const SMALL = 20;
  const persistence = createFilePersistence({});
  const warm = await openWith(persistence, 0, 400); // warm-up: JIT, project registry, folders
  await warm.log.close();
  const build = [];
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const big = await openWith(persistence, 0, 10_000 - rounds, build);
  const buildMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const buildCpu = process.cpuUsage(cpu0);
  const mid = await openWith(persistence, 0, 1_000 - rounds / 2);
  let small = await openWith(persistence, 0, 0);
  const timings = { small: [], mid: [], big: [] };
  for (let r = 0; r < rounds; r++) {
    if (small.next === SMALL) {
      await small.log.close();
      small = await openWith(persistence, 0, 0);
    }
    timings.small.push(await timedAppend(small.log, small.next++));
    timings.mid.push(await timedAppend(mid.log, mid.next++));
    timings.big.push(await timedAppend(big.log, big.next++));
  }
  for (const s of [small, mid, big]) await s.log.close();
  const { readdirSync, statSync } = await import('node:fs');
  const { join } = await import('node:path');
  let fileBytes = 0;
  let file;
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.includes(big.id.slice(0, 8)) && e.name.endsWith('.jsonl')) {
        file = join(d, e.name);
        fileBytes = statSync(file).size;
      }
    }
  };
  walk(home);
  process.stdout.write(
    `${JSON.stringify({
      api,
      id: big.id,
      messages: big.next,
      timings,
      sizes: {
        small: [0, SMALL],
        mid: [1_000 - rounds / 2, 1_000 + rounds / 2],
        big: [10_000 - rounds, 10_000],
      },
      buildMs,
      buildCpuMs: (buildCpu.user + buildCpu.system) / 1000,
      buildAppends: build.length,
      fileBytes,
      file,
    })}\n`,
  );
} else if (mode === 'resume') {
  const persistence = createFilePersistence({});
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const log = await persistence.open(arg, { resume: true, cwd });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = process.cpuUsage(cpu0);
  const messages = log.history.length;
  await log.close();
  process.stdout.write(
    `${JSON.stringify({ api, resumeMs: ms, resumeCpuMs: (cpu.user + cpu.system) / 1000, historyLength: messages })}\n`,
  );
} else if (mode === 'parse') {
  // The same process start-up as resume (the package is imported above), then only read + JSON.parse per line.
  const { readFile } = await import('node:fs/promises');
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const text = await readFile(home, 'utf8');
  let lines = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    JSON.parse(line);
    lines++;
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(
    `${JSON.stringify({ api, parseMs: ms, parseCpuMs: (cpu.user + cpu.system) / 1000, lines })}\n`,
  );
} else {
  throw new Error(`p4-persistence: unknown mode ${mode}`);
}
