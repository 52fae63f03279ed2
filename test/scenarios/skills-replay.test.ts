/**
 * The reference skills scenarios (skill-dir-success / skill-root-success) through the public agent API, with the
 * skills feature plugged in through public options only (the `activate_skill` AgentTool as a tool, the skills
 * section through dynamic instructions). Replaced by the `skills` option once the agent wires the feature.
 */
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  GeminiCliAgent,
  type ServerGeminiStreamEvent,
  type SessionContext,
} from '../../src/index.js';
import { createSkillsFeature, skillDir, type SkillReference } from '../../src/skills/index.js';

const data = (name: string): string =>
  fileURLToPath(new URL(`../fixtures/gemini-cli-sdk-test-data/${name}`, import.meta.url));

async function runScenario(reference: SkillReference, fixture: string, prompt: string) {
  const skills = createSkillsFeature({ cwd: data('.'), references: [reference], discovery: false });
  const manager = await skills.load();
  const [activateSkill] = skills.toolProvider({} as SessionContext);
  if (!activateSkill) throw new Error('activate_skill was not offered');
  const agent = new GeminiCliAgent({
    instructions: (ctx) => `${skills.sectionProvider(ctx) ?? ''}\n\nYou are a helpful assistant.`,
    tools: [activateSkill],
    fakeResponses: data(fixture),
  });
  const events: ServerGeminiStreamEvent[] = [];
  for await (const event of agent.session().sendStream(prompt)) events.push(event);
  return { events, manager };
}

describe.each([
  [
    'skill-dir-success.json',
    skillDir(data('skills/pirate-skill')),
    'Activate the pirate-skill and then tell me a joke.',
  ],
  [
    'skill-root-success.json',
    skillDir(data('skills')),
    'Activate the pirate-skill and confirm it is active.',
  ],
])('%s', (fixture, reference, prompt) => {
  it('executes activate_skill and sends <activated_skill name="pirate-skill"> to the model', async () => {
    const { events, manager } = await runScenario(reference, fixture, prompt);
    const response = events.find((e) => e.type === 'tool_call_response');
    if (response?.type !== 'tool_call_response') throw new Error('no tool_call_response event');
    expect(response.value.name).toBe('activate_skill');
    expect(response.value.error).toBeUndefined();
    const pirate = data('skills/pirate-skill');
    expect(response.value.responseParts[0]?.functionResponse?.response).toEqual({
      output: [
        '<activated_skill name="pirate-skill">',
        '  <instructions>',
        '    Answer every message the way a pirate would talk, and say "Arrr" in each answer.',
        '  </instructions>',
        '',
        '  <available_resources>',
        '    Showing up to 200 items (files + folders).',
        '',
        `${pirate}${sep}`,
        '└───SKILL.md',
        '  </available_resources>',
        '</activated_skill>',
      ].join('\n'),
    });
    const text = events.map((e) => (e.type === 'content' ? e.value : '')).join('');
    expect(text.toLowerCase()).toContain('arrr');
    expect(manager.isActive('pirate-skill')).toBe(true);
  });
});
