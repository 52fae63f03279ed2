import type { AvailableCommand, SessionUpdate } from '@agentclientprotocol/sdk';
import type { Part } from '@google/genai';
import type { GeminiCliSession } from '../agent/session.js';
import { GeminiAgentError } from '../errors.js';

/** What a slash command can reach. */
export interface AcpCommandContext {
  session: GeminiCliSession;
  /** Name and version, for `/about`. */
  about: string;
  send(update: SessionUpdate): Promise<void>;
}

interface Command extends AvailableCommand {
  run(args: string, ctx: AcpCommandContext): Promise<string>;
}

const COMMANDS: readonly Command[] = [
  {
    name: 'help',
    description: 'List the commands of this agent',
    async run() {
      return COMMANDS.map((c) => `/${c.name} — ${c.description}`).join('\n');
    },
  },
  {
    name: 'about',
    description: 'Show the agent, its version and the session',
    async run(_args, { about, session }) {
      return [
        about,
        `Session: ${session.id}`,
        `Model: ${session.model}`,
        `Mode: ${session.approvalMode}`,
      ].join('\n');
    },
  },
  {
    name: 'skills',
    description: 'List, enable or disable skills',
    input: { hint: 'list | enable <name> | disable <name>' },
    async run(args, { session }) {
      await session.initialize();
      const [verb = 'list', name] = args.split(/\s+/).filter((w) => w !== '');
      const skills = session.skills;
      if (verb === 'enable' || verb === 'disable') {
        if (!name) return `Usage: /skills ${verb} <name>`;
        if (verb === 'enable') skills.enable(name);
        else skills.disable(name);
        return `Skill "${name}" ${verb}d.`;
      }
      if (verb !== 'list') return 'Usage: /skills list | enable <name> | disable <name>';
      const list = skills.list();
      if (list.length === 0) return 'No skills are loaded.';
      return list
        .map((s) => `- ${s.name}${s.enabled ? '' : ' (disabled)'}: ${s.description}`)
        .join('\n');
    },
  },
];

/** The commands announced in `available_commands_update`. */
export function availableCommands(): AvailableCommand[] {
  return COMMANDS.map(({ name, description, input }) => ({
    name,
    description,
    ...(input ? { input } : {}),
  }));
}

/**
 * Runs a slash command when the prompt's text starts with `/<name>` of a known command: its output goes to the
 * client as an agent message and the model is not called (as gemini-cli's ACP commands). Returns false when the
 * prompt is not a command (an unknown `/word` goes to the model as typed).
 */
export async function runCommand(parts: readonly Part[], ctx: AcpCommandContext): Promise<boolean> {
  const first = parts[0];
  if (parts.length !== 1 || first?.text === undefined) return false;
  const match = /^\/([a-z][\w-]*)(?:\s+([\s\S]*))?$/.exec(first.text.trim());
  const command = match ? COMMANDS.find((c) => c.name === match[1]) : undefined;
  if (!match || !command) return false;
  let text: string;
  try {
    text = await command.run(match[2] ?? '', ctx);
  } catch (error) {
    text =
      error instanceof GeminiAgentError
        ? error.message
        : `/${command.name} failed: ${String(error)}`;
  }
  await ctx.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
  return true;
}
