/**
 * Sessions persist (as gemini-cli sessions under $GEMINI_CLI_HOME or ~/.gemini) and resume by id — later,
 * in another process, with a new agent. The resumed session sends the model the exact earlier history.
 *
 * Run: npx tsx examples/resume.ts
 *      (replays examples/replays/resume-*.jsonl unless GEMINI_API_KEY is set)
 */
import './temp-home.js';
import { fileURLToPath } from 'node:url';
import { GeminiCliAgent } from 'gemini-agent-sdk';

const live = Boolean(process.env['GEMINI_API_KEY']);
const replay = (name: string): string | undefined =>
  live ? undefined : fileURLToPath(new URL(`./replays/${name}.jsonl`, import.meta.url));

// First run: start a session and keep its id.
const firstAgent = new GeminiCliAgent({ fakeResponses: replay('resume-first') });
const session = firstAgent.session();
const first = await session.send('Remember this word: BANANA. Reply with OK.');
console.log(`[session ${session.id}] ${first.text}`);
await session.close(); // releases the session's lock, as the end of a process would

// Later (another process would do the same): a new agent resumes the session by id.
const laterAgent = new GeminiCliAgent({ fakeResponses: replay('resume-later') });
const resumed = await laterAgent.resumeSession(session.id);
const later = await resumed.send('What word did I ask you to remember?');
console.log(`[resumed ${resumed.id}] ${later.text}`);
await resumed.close();
