/**
 * P3 client, baseline: a hand-written loop on the bare @google/genai client, sending the same requests as our
 * session (same model, system instruction, tool declarations, generation config and first user turn, captured
 * from our session's first request) to the same kind of FakeGeminiServer process. Prints the same JSON line as p3-ours.mjs.
 * argv: baseUrl rounds shapeFile
 */
import process from 'node:process';
import { readFileSync } from 'node:fs';
import { GoogleGenAI } from '@google/genai';
import { tickAction } from './p3-shared.mjs';

const [baseUrl, roundsArg, shapeFile] = process.argv.slice(2);
const rounds = Number(roundsArg);
const shape = JSON.parse(readFileSync(shapeFile, 'utf8'));
const ai = new GoogleGenAI({ apiKey: 'bench-fake-key', httpOptions: { baseUrl } });
const config = {
  ...(shape.body.systemInstruction ? { systemInstruction: shape.body.systemInstruction } : {}),
  ...(shape.body.tools ? { tools: shape.body.tools } : {}),
  ...(shape.body.toolConfig ? { toolConfig: shape.body.toolConfig } : {}),
  ...(shape.body.generationConfig ?? {}),
};
const SKIP_SIGNATURE = 'skip_thought_signature_validator';
const actions = { tick: (args) => tickAction(args.i) };

const cpu0 = process.cpuUsage();
const t0 = process.hrtime.bigint();
// The first user turn exactly as our session sent it (its <session_context> part, then the prompt).
const contents = [...shape.body.contents];
let calls = 0;
let finished = false;
for (let turn = 0; turn <= rounds + 5; turn++) {
  const stream = await ai.models.generateContentStream({ model: shape.model, contents, config });
  const parts = [];
  for await (const chunk of stream) {
    const p = chunk.candidates?.[0]?.content?.parts;
    if (p) parts.push(...p);
  }
  // Same protocol detail as our session (and gemini-cli): a functionCall part of the active loop without a
  // thought signature gets the documented placeholder, so both clients send byte-identical requests.
  for (const p of parts)
    if (p.functionCall && !p.thoughtSignature) p.thoughtSignature = SKIP_SIGNATURE;
  contents.push({ role: 'model', parts });
  const fc = parts.filter((p) => p.functionCall);
  if (fc.length === 0) {
    finished = true;
    break;
  }
  const responses = [];
  for (const { functionCall } of fc) {
    calls++;
    const output = await actions[functionCall.name](functionCall.args ?? {});
    responses.push({
      functionResponse: { id: functionCall.id, name: functionCall.name, response: { output } },
    });
  }
  contents.push({ role: 'user', parts: responses });
}
const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
const cpu = process.cpuUsage(cpu0);
const total = process.cpuUsage();
process.stdout.write(
  `${JSON.stringify({
    calls,
    finished,
    loopCpuMs: (cpu.user + cpu.system) / 1000,
    loopWallMs: wallMs,
    processCpuMs: (total.user + total.system) / 1000,
    maxRssKiB: process.resourceUsage().maxRSS,
  })}\n`,
);
