import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  GeminiCliAgent,
  type GeminiCliAgentOptions,
  type ToolCallResponseInfo,
} from '../../src/index.js';
import { gatherPolicyFiles } from '../../src/policy/policy-dirs.js';
import { silentLogger } from '../../src/logger.js';
import { ScriptedModel, callTurn, textTurn } from '../../src/testing/index.js';

let root: string;
let home: string;
let cwd: string;
let savedHome: string | undefined;

const write = (path: string, content: string | object): void => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
};
const rule = (tool: string, decision: string, priority: number, extra = ''): string =>
  `[[rule]]\ntoolName = "${tool}"\ndecision = "${decision}"\npriority = ${priority}\n${extra}`;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'settings-policies-')));
  home = join(root, 'home');
  cwd = join(root, 'proj');
  mkdirSync(cwd, { recursive: true });
  savedHome = process.env['GEMINI_CLI_HOME'];
  process.env['GEMINI_CLI_HOME'] = home;
});
afterEach(() => {
  process.env['GEMINI_CLI_HOME'] = savedHome;
  rmSync(root, { recursive: true, force: true });
});

async function responses(
  command: string,
  options: GeminiCliAgentOptions = {},
): Promise<ToolCallResponseInfo[]> {
  const model = new ScriptedModel([
    callTurn({ name: 'run_shell_command', args: { command } }),
    textTurn('ok'),
  ]);
  const agent = new GeminiCliAgent({
    cwd,
    contentGenerator: model,
    retry: false,
    persist: false,
    ...options,
  });
  const session = agent.session();
  const out: ToolCallResponseInfo[] = [];
  for await (const event of session.sendStream('go')) {
    if (event.type === 'tool_call_response') out.push(event.value);
  }
  await session.close();
  return out;
}

describe('gemini-cli policy folders', () => {
  it('a user policy denying rm is enforced under yolo, as gemini does: the file survives', async () => {
    write(
      join(home, '.gemini', 'policies', 'deny.toml'),
      rule('run_shell_command', 'deny', 500, 'commandPrefix = "rm"\n'),
    );
    write(join(cwd, 'victim.txt'), 'keep me');
    const [response] = await responses('rm victim.txt', { policy: { mode: 'yolo' } });
    expect(response?.error?.message).toBe('Tool execution denied by policy.');
    expect(existsSync(join(cwd, 'victim.txt'))).toBe(true);
    // Without the settings there is no user folder: yolo runs it.
    await responses('rm victim.txt', { policy: { mode: 'yolo' }, settings: false });
    expect(existsSync(join(cwd, 'victim.txt'))).toBe(false);
  });

  it('policyPaths replaces ~/.gemini/policies; adminPolicyPaths beats a user allow', async () => {
    write(join(home, '.gemini', 'policies', 'allow.toml'), rule('run_shell_command', 'allow', 900));
    write(
      join(root, 'pol', 'deny.toml'),
      rule(
        'run_shell_command',
        'deny',
        1,
        'commandPrefix = "echo"\ndenyMessage = "from policyPaths"\n',
      ),
    );
    write(
      join(root, 'admin', 'deny.toml'),
      rule('run_shell_command', 'deny', 1, 'denyMessage = "admin"\n'),
    );
    let [response] = await responses('echo hi');
    expect(response?.error).toBeUndefined();
    [response] = await responses('echo hi', {
      policy: { mode: 'yolo' },
      settings: { overrides: { policyPaths: [join(root, 'pol', 'deny.toml')] } },
    });
    expect(response?.error?.message).toBe('Tool execution denied by policy. from policyPaths');
    // An unconditional admin deny hides the tool, as gemini-cli 0.61 does (policy-admin-flag.json).
    [response] = await responses('echo hi', {
      settings: { overrides: { adminPolicyPaths: [join(root, 'admin')] } },
    });
    expect(response?.error?.message).toMatch(/^Tool "run_shell_command" not found\. Did you mean/);
  });

  it('a broken user policy file fails the session naming the file (fail closed)', async () => {
    write(join(home, '.gemini', 'policies', 'bad.toml'), '[[rule]]\ntoolName = "x"\n');
    await expect(responses('echo hi')).rejects.toThrow(/bad\.toml/);
  });

  it('skips an insecure system folder and ignores admin paths when the system folder has rules', () => {
    const systemDir = join(root, 'etc-policies');
    write(join(systemDir, 'a.toml'), rule('x', 'deny', 1));
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (m: string) => warnings.push(m) };
    const refs = gatherPolicyFiles({
      home,
      user: true,
      system: true,
      systemDir,
      adminPolicyPaths: [join(root, 'admin')],
      logger,
    });
    // The test runs as a user other than root, or the folder is ours: either way it is not root-owned+locked.
    expect(refs.some((r) => typeof r !== 'string' && r.path === systemDir)).toBe(
      process.getuid?.() === 0,
    );
    if (process.getuid?.() === 0) {
      expect(warnings[0]).toContain('Ignoring --admin-policy');
    } else {
      expect(warnings[0]).toContain('Skipping system policies');
    }
  });
});
