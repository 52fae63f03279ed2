/**
 * P11 client: the parsers of user files, each on a hostile input and on a benign baseline in the same process —
 * a SKILL.md with a 1 MB YAML alias bomb against a 1 MB plain one, a policy TOML and a settings.json of 5 MB against
 * the same files at 0.5 MB (the ratio shows whether the cost grows faster than the input), and a policy rule with a
 * pattern that backtracks exponentially in a backtracking engine (`(a|aa)*c`; nested quantifiers such as `(a+)+` are refused when the rule is loaded) matched against 1,000,000 and 100,000 characters (below ~50,000 characters re2js's DFA cache keeps it faster still, so the pair is taken where the cost per character is steady). Variants run
 * interleaved, `reps` times each after a warm-up; each sample is process.cpuUsage() (user + system) in ms.
 * Prints one JSON line: { samples: { name: number[] }, sizes: { name: bytes } }.
 * argv: reps dir
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Buffer } from 'node:buffer';
import process from 'node:process';
import { createPolicyEngine, parsePolicyToml } from 'gemini-agent-sdk/policy';
// Internal parsers: dist/ is bundled per public entry point, so they are loaded from the sources (run with tsx).
import { parseSkillMarkdown } from '../../src/skills/skill-frontmatter.ts';
import { readSettingsFile } from '../../src/settings/settings-file.ts';

const [repsArg, dir] = process.argv.slice(2);
const reps = Number(repsArg);

function skill(bomb) {
  let yaml = `name: ${bomb ? 'bomb' : 'plain'}\ndescription: a skill\n`;
  if (bomb) {
    yaml += 'a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n';
    for (let i = 1; i < 9; i++)
      yaml += `a${i}: &a${i} [${Array(9)
        .fill(`*a${i - 1}`)
        .join(', ')}]\n`;
  }
  yaml += `# ${'x'.repeat(1_000_000)}\n`;
  return `---\n${yaml}---\nThe body.\n`;
}

function policy(bytes) {
  let toml = '';
  for (let i = 0; toml.length < bytes; i++) {
    toml += `[[rule]]\ntoolName = "tool_${i}"\ndecision = "${i % 2 ? 'deny' : 'allow'}"\npriority = ${i % 900}\n\n`;
  }
  return toml;
}

function settings(bytes) {
  const allowed = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const entry = `run_shell_command(git log --oneline -n ${i})`;
    allowed.push(entry);
    size += entry.length + 4;
  }
  return JSON.stringify({ tools: { allowed }, ui: { theme: 'Default' } }, null, 2);
}

const inputs = {
  'skill-plain': skill(false),
  'skill-bomb': skill(true),
  'policy-0.5MB': policy(500_000),
  'policy-5MB': policy(5_000_000),
};
const files = {
  'settings-0.5MB': join(dir, 'settings-small.json'),
  'settings-5MB': join(dir, 'settings-big.json'),
};
writeFileSync(files['settings-0.5MB'], settings(500_000));
writeFileSync(files['settings-5MB'], settings(5_000_000));

const evil = await createPolicyEngine({
  rules: [{ toolName: 'lookup', argsPattern: '"q":"(a|aa)*c', decision: 'deny' }],
});
const subject = (n) => ({ name: 'lookup', args: { q: `${'a'.repeat(n)}!c` } });

const variants = {
  'skill-plain': () => parseSkillMarkdown(inputs['skill-plain']),
  'skill-bomb': () => parseSkillMarkdown(inputs['skill-bomb']),
  'policy-0.5MB': () => parsePolicyToml(inputs['policy-0.5MB'], 'small.toml'),
  'policy-5MB': () => parsePolicyToml(inputs['policy-5MB'], 'big.toml'),
  'settings-0.5MB': () => readSettingsFile(files['settings-0.5MB'], {}),
  'settings-5MB': () => readSettingsFile(files['settings-5MB'], {}),
  'regex-100k': () => evil.explain(subject(100_000), { mode: 'default' }),
  'regex-1M': () => evil.explain(subject(1_000_000), { mode: 'default' }),
};

/** Checks each parser did its job, so a broken parser cannot look fast. */
async function check() {
  const bomb = parseSkillMarkdown(inputs['skill-bomb']);
  if (!bomb.ok || bomb.value.name !== 'bomb')
    throw new Error(`the alias bomb did not load: ${JSON.stringify(bomb).slice(0, 200)}`);
  const rules = parsePolicyToml(inputs['policy-5MB'], 'big.toml').rules.length;
  if (rules < 50_000) throw new Error(`the 5 MB policy gave ${rules} rules`);
  const allowed = readSettingsFile(files['settings-5MB'], {}).settings.tools?.allowed?.length ?? 0;
  if (allowed < 50_000) throw new Error(`the 5 MB settings gave ${allowed} allowed tools`);
  const decision = (await evil.explain(subject(1_000_000), { mode: 'default' })).decision;
  if (decision !== 'allow' && decision !== 'ask_user')
    throw new Error(`the (a|aa)*c rule matched "a…!c": ${decision}`);
  return { rules, allowed, decision };
}

const checked = await check();
const samples = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
const names = Object.keys(variants);
for (const name of names) await variants[name](); // warm-up
for (let r = 0; r < reps; r++) {
  const order = names.map((_, i) => names[(i + r) % names.length]);
  for (const name of order) {
    const before = process.cpuUsage();
    await variants[name]();
    const used = process.cpuUsage(before);
    samples[name].push((used.user + used.system) / 1000);
  }
}
const sizes = {
  ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, Buffer.byteLength(v)])),
};
process.stdout.write(`${JSON.stringify({ samples, sizes, checked })}\n`);
