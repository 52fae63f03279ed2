/**
 * The situations recorded from gemini 0.61 (scripts/gemini-reference/record.ts) and replayed against
 * gemini-agent by the parity tests. Paths are relative to a temp root: `home/` is HOME, `proj/` the project.
 */
import type { Scenario } from './reference.js';

const TRUST_PROJ = { 'home/.gemini/trustedFolders.json': { '<ROOT>/proj': 'TRUST_FOLDER' } };
const API_KEY_AUTH = {
  'home/.gemini/settings.json': { security: { auth: { selectedType: 'gemini-api-key' } } },
};

/** The hook events a headless run fires (Notification needs an approval; PreCompress a compression). */
const HOOK_EVENTS_LOGGED = [
  'SessionStart',
  'BeforeAgent',
  'BeforeModel',
  'BeforeToolSelection',
  'AfterModel',
  'BeforeTool',
  'AfterTool',
  'AfterAgent',
  'SessionEnd',
];

/** A command hook for each of them, all running the same logging script. */
const HOOKS_ON_EVERY_EVENT = Object.fromEntries(
  HOOK_EVENTS_LOGGED.map((e) => [
    e,
    [
      {
        hooks: [
          {
            type: 'command',
            name: `log-${e}`,
            command: 'bash $GEMINI_PROJECT_DIR/.gemini/hooks/log.sh',
          },
        ],
      },
    ],
  ]),
);

/** Logs what each hook received (the parts that compare across implementations) and answers per event. */
const HOOK_LOG_SCRIPT =
  '#!/usr/bin/env bash\n# Logs each hook input (one JSON line per event) and answers like a small gemini-cli setup would.\ninput=$(cat)\nevent=$(echo "$input" | jq -r \'.hook_event_name\')\nmkdir -p "$GEMINI_PROJECT_DIR/.hook-log"\necho "$input" | jq -c \'{keys: (keys), tool_name, tool_input, prompt, source, reason, trigger, stop_hook_active, prompt_response, cwd_is_project: (.cwd == env.GEMINI_PROJECT_DIR), session_env: (.session_id == env.GEMINI_SESSION_ID), transcript: (.transcript_path | test("\\\\.jsonl?$")), tool_response_keys: (.tool_response | if . then keys else null end), model: .llm_request.model, messages: (.llm_request.messages | if . then length else null end), response_text: .llm_response.text}\' >> "$GEMINI_PROJECT_DIR/.hook-log/$event.jsonl"\ncase "$event" in\n  BeforeTool)\n    if echo "$input" | jq -e \'.tool_input.content // "" | test("password")\' > /dev/null; then\n      echo \'{"decision":"deny","reason":"Potential secret detected","systemMessage":"secret blocked"}\'\n    elif echo "$input" | jq -e \'.tool_input.command // "" | startswith("rm ")\' > /dev/null; then\n      echo "rm is not allowed in this project" >&2\n      exit 2\n    else\n      echo \'{"decision":"allow"}\'\n    fi ;;\n  AfterTool) echo "$input" | jq -c \'{hookSpecificOutput: {additionalContext: ("checked " + .tool_name)}}\' ;;\n  BeforeAgent) echo \'{"hookSpecificOutput":{"additionalContext":"branch: main"}}\' ;;\n  SessionStart) echo \'{"systemMessage":"Loaded project context","hookSpecificOutput":{"additionalContext":"Project: demo"}}\' ;;\n  *) echo \'{}\' ;;\nesac\n';

/** A dependency-free stdio MCP server (newline-delimited JSON-RPC) with one tool, `echo`. */
const TINY_MCP_SERVER = `import { createInterface } from 'node:readline';
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.id === undefined) return;
  if (msg.method === 'initialize')
    send({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'tiny', version: '1.0.0' } } });
  else if (msg.method === 'tools/list')
    send({ jsonrpc: '2.0', id: msg.id, result: { tools: [{ name: 'echo', description: 'Echoes text back, with the greeting from the environment.', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }] } });
  else if (msg.method === 'tools/call')
    send({ jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: (process.env.EXT_GREETING ?? 'none') + ': ' + msg.params.arguments.text }] } });
  else send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'not found' } });
});
`;

/** A command hook script (node, no dependencies) that logs what it got, and the extension setting it sees. */
const EXT_HOOK_SCRIPT = `import { appendFileSync } from 'node:fs';
let input = '';
process.stdin.on('data', (d) => (input += d)).on('end', () => {
  const event = JSON.parse(input);
  appendFileSync(process.argv[2], JSON.stringify({ event: event.hook_event_name, tool: event.tool_name ?? null, greeting: process.env.EXT_GREETING ?? null }) + '\\n');
  process.stdout.write('{}');
});
`;

/** An extension written for gemini-cli 0.61 with one of each part: MCP server, context, skill, hook, policy, agent. */
const FULL_EXTENSION = {
  'home/.gemini/extensions/ext-full/gemini-extension.json': {
    name: 'ext-full',
    version: '1.2.0',
    description: 'One of each extension part.',
    mcpServers: {
      tiny: { command: 'node', args: ['${extensionPath}${/}server.mjs'], trust: true },
    },
    excludeTools: ['google_web_search'],
    settings: [{ name: 'Greeting', description: 'How to greet.', envVar: 'EXT_GREETING' }],
  },
  'home/.gemini/extensions/ext-full/.env': 'EXT_GREETING=hola\n',
  'home/.gemini/extensions/ext-full/server.mjs': TINY_MCP_SERVER,
  'home/.gemini/extensions/ext-full/GEMINI.md':
    'Extension rule: sign every answer with "-- ext".\n',
  'home/.gemini/extensions/ext-full/skills/greeter/SKILL.md':
    '---\nname: greeter\ndescription: Greets in ${EXT_GREETING} style.\n---\nRun ${extensionPath}${/}greet.sh to greet.\n',
  'home/.gemini/extensions/ext-full/hooks/hooks.json': {
    hooks: {
      BeforeTool: [
        {
          matcher: '.*',
          hooks: [
            {
              type: 'command',
              name: 'ext-log',
              command:
                'node ${extensionPath}${/}hooks${/}log.mjs ${workspacePath}${/}ext-hook.jsonl',
            },
          ],
        },
      ],
    },
  },
  'home/.gemini/extensions/ext-full/hooks/log.mjs': EXT_HOOK_SCRIPT,
  'home/.gemini/extensions/ext-full/policies/policies.toml':
    '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "rm"\ndecision = "deny"\npriority = 100\ndenyMessage = "ext-full forbids rm"\n\n[[rule]]\ntoolName = "write_file"\ndecision = "allow"\npriority = 999\n',
  'home/.gemini/extensions/ext-full/agents/reviewer.md':
    '---\nname: reviewer\ndescription: Reviews code for ${EXT_GREETING}.\n---\nYou review code carefully.\n',
  'home/.gemini/extensions/ext-off/gemini-extension.json': { name: 'ext-off', version: '0.1.0' },
  'home/.gemini/extensions/ext-off/GEMINI.md': 'Disabled extension: never shown.\n',
  'home/.gemini/extensions/extension-enablement.json': {
    'ext-off': { overrides: ['!<ROOT>/*'] },
  },
  'home/.gemini/extensions/bad-name/gemini-extension.json': { name: 'bad name', version: '1.0.0' },
  'home/.gemini/extensions/no-version/gemini-extension.json': { name: 'no-version' },
  'home/.gemini/extensions/bad-json/gemini-extension.json': '{ "name": "bad-json", ',
  'home/.gemini/extensions/escape/gemini-extension.json': {
    name: 'escape',
    version: '1.0.0',
    contextFileName: '../ext-full/GEMINI.md',
  },
};

export const SCENARIOS: Scenario[] = [
  {
    name: 'skills-command',
    about:
      'gemini skills list | disable | enable on a user skill and a workspace skill: the listing, the messages and what each writes to the settings files.',
    files: {
      ...API_KEY_AUTH,
      ...TRUST_PROJ,
      'home/.gemini/skills/alpha/SKILL.md':
        '---\nname: alpha\ndescription: Alpha skill does A.\n---\nUse A.\n',
      'proj/.gemini/skills/beta/SKILL.md':
        '---\nname: beta\ndescription: Beta skill.\n---\nUse B.\n',
      'proj/.git/': '',
    },
    args: ['skills', 'list'],
    then: [
      ['skills', 'disable', 'alpha'],
      ['skills', 'disable', 'alpha'],
      ['skills', 'disable', 'alpha', '--scope', 'user'],
      ['skills', 'list'],
      ['skills', 'enable', 'alpha'],
      ['skills', 'enable', 'alpha'],
      ['skills', 'disable', 'beta', '--scope', 'user'],
      ['skills', 'list'],
    ],
    check: ['proj/.gemini/settings.json', 'home/.gemini/settings.json'],
  },
  {
    name: 'hooks-command',
    about:
      'Workspace command hooks (bash + jq) on every event a headless run fires: what each hook received, and how a deny, an exit-2 brake and added context reach the model.',
    files: {
      ...API_KEY_AUTH,
      ...TRUST_PROJ,
      'proj/.gemini/settings.json': { hooks: HOOKS_ON_EVERY_EVENT },
      'proj/.gemini/hooks/log.sh': HOOK_LOG_SCRIPT,
    },
    args: ['-m', 'gemini-2.5-pro', '-p', 'Write the files.', '--yolo', '-o', 'json'],
    turns: [
      {
        calls: [
          { name: 'write_file', args: { file_path: 'ok.txt', content: 'hello\n' } },
          { name: 'write_file', args: { file_path: 'secret.txt', content: 'password=hunter2' } },
          { name: 'run_shell_command', args: { command: 'rm -rf build', description: 'clean' } },
        ],
      },
      { text: 'Done.' },
    ],
    check: [
      'proj/ok.txt',
      'proj/secret.txt',
      ...HOOK_EVENTS_LOGGED.map((e) => `proj/.hook-log/${e}.jsonl`),
    ],
  },
  {
    name: 'memory-basic',
    about:
      'Global and project GEMINI.md; the default request shape for gemini-2.5-pro in a trusted folder.',
    files: {
      ...API_KEY_AUTH,
      ...TRUST_PROJ,
      'home/.gemini/GEMINI.md': 'Global rule: answer briefly.\n',
      'proj/GEMINI.md': 'Project rule: use TypeScript.\n',
      'proj/src/index.ts': 'export {};\n',
      'proj/README.md': '# proj\n',
    },
    args: ['-m', 'gemini-2.5-pro', '-p', 'hello', '-o', 'json'],
    turns: [{ text: 'Hi!' }],
  },
  {
    name: 'untrusted-headless',
    about: 'Headless run in a folder with no trust rule: gemini refuses.',
    files: { ...API_KEY_AUTH },
    args: ['-m', 'gemini-2.5-pro', '-p', 'hello'],
    turns: [{ text: 'Hi!' }],
  },
  {
    name: 'tools-yolo',
    about: 'Tools offered under --yolo.',
    files: { ...API_KEY_AUTH, ...TRUST_PROJ },
    args: ['-m', 'gemini-2.5-pro', '-p', 'hello', '--yolo'],
    turns: [{ text: 'Hi!' }],
  },
  {
    name: 'policy-user-deny-rm',
    about:
      'A user policy denying rm under --yolo: the shell call is refused and the file survives.',
    files: {
      ...API_KEY_AUTH,
      ...TRUST_PROJ,
      'home/.gemini/policies/deny.toml':
        '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "rm"\ndecision = "deny"\npriority = 500\n',
      'proj/victim.txt': 'keep me\n',
    },
    args: ['-m', 'gemini-2.5-pro', '-p', 'delete victim.txt', '--yolo', '-o', 'json'],
    turns: [
      { calls: [{ name: 'run_shell_command', args: { command: 'rm victim.txt' } }] },
      { text: 'I could not delete it.' },
    ],
    check: ['proj/victim.txt'],
  },
];

/** gemini routes `auto*` models with a classifier call first; a 400 makes it fall back to the default route. */
const CLASSIFIER_FAILS: Scenario['turns'] = [{ status: 400 }, { text: 'Hi!' }];

const hi = (model: string, extra: Partial<Scenario> = {}): Scenario => ({
  name: `model-${model}`,
  about: `How -m ${model} is resolved and which generationConfig it gets.`,
  files: { ...API_KEY_AUTH, ...TRUST_PROJ },
  args: ['-m', model, '-p', 'hi'],
  turns: [{ text: 'Hi!' }],
  ...extra,
});

SCENARIOS.push(
  hi('auto', { turns: CLASSIFIER_FAILS }),
  hi('pro'),
  hi('flash'),
  hi('flash-lite'),
  hi('auto-gemini-2.5', { turns: CLASSIFIER_FAILS }),
  hi('auto-gemini-3', { turns: CLASSIFIER_FAILS }),
  hi('gemini-2.5-flash'),
  hi('gemini-2.0-flash'),
  hi('gemini-3-pro-preview'),
  {
    name: 'model-default',
    about: 'No -m and no settings: the default model.',
    files: { ...API_KEY_AUTH, ...TRUST_PROJ },
    args: ['-p', 'hi'],
    turns: CLASSIFIER_FAILS,
  },
  {
    name: 'model-precedence',
    about: 'settings model.name < GEMINI_MODEL < -m; here settings and GEMINI_MODEL only.',
    files: {
      'home/.gemini/settings.json': {
        security: { auth: { selectedType: 'gemini-api-key' } },
        model: { name: 'gemini-2.5-flash-lite' },
      },
      ...TRUST_PROJ,
    },
    args: ['-p', 'hi'],
    env: { GEMINI_MODEL: 'gemini-2.5-pro' },
    turns: [{ text: 'Hi!' }],
  },
  {
    name: 'settings-model-name',
    about: 'model.name from the user settings, with a $VAR reference and comments in the file.',
    files: {
      'home/.gemini/settings.json':
        '{\n  // user settings\n  "security": { "auth": { "selectedType": "gemini-api-key" } },\n  "model": { "name": "${MY_MODEL:-gemini-2.5-pro}" } /* default pro */\n}\n',
      ...TRUST_PROJ,
    },
    args: ['-p', 'hi'],
    turns: [{ text: 'Hi!' }],
  },
  {
    name: 'settings-workspace-trusted',
    about: 'Workspace .gemini/settings.json in a trusted folder overrides the user file.',
    files: {
      'home/.gemini/settings.json': {
        security: { auth: { selectedType: 'gemini-api-key' } },
        model: { name: 'gemini-2.5-pro' },
      },
      'proj/.gemini/settings.json': { model: { name: 'gemini-2.5-flash-lite' } },
      ...TRUST_PROJ,
    },
    args: ['-p', 'hi'],
    turns: [{ text: 'Hi!' }],
  },
  {
    name: 'settings-skip-trust',
    about: '--skip-trust trusts the folder for this run: workspace settings apply.',
    files: {
      'home/.gemini/settings.json': {
        security: { auth: { selectedType: 'gemini-api-key' } },
        model: { name: 'gemini-2.5-pro' },
      },
      'proj/.gemini/settings.json': { model: { name: 'gemini-2.5-flash-lite' } },
    },
    args: ['-p', 'hi', '--skip-trust'],
    turns: [{ text: 'Hi!' }],
  },
  {
    name: 'settings-folder-trust-off',
    about: 'security.folderTrust.enabled false: every folder is trusted, headless runs.',
    files: {
      'home/.gemini/settings.json': {
        security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
      },
      'proj/.gemini/settings.json': { model: { name: 'gemini-2.5-flash-lite' } },
    },
    args: ['-p', 'hi'],
    turns: [{ text: 'Hi!' }],
  },
  {
    name: 'settings-malformed',
    about: 'A trailing comma in the user settings file.',
    files: {
      'home/.gemini/settings.json':
        '{\n  "security": { "auth": { "selectedType": "gemini-api-key" } },\n  "model": { "name": "gemini-2.5-pro" },\n}\n',
      ...TRUST_PROJ,
    },
    args: ['-p', 'hi'],
    turns: [{ text: 'Hi!' }],
  },
  {
    name: 'settings-invalid-values',
    about: 'Unknown keys and values of the wrong type in the user settings.',
    files: {
      'home/.gemini/settings.json': {
        security: { auth: { selectedType: 'gemini-api-key' } },
        model: { name: 'gemini-2.5-pro', maxSessionTurns: 'lots', nmae: 'typo' },
        totallyUnknown: true,
      },
      ...TRUST_PROJ,
    },
    args: ['-p', 'hi'],
    turns: [{ text: 'Hi!' }],
  },
  {
    name: 'trusted-folders-malformed',
    about: 'trustedFolders.json with an unknown trust level.',
    files: {
      ...API_KEY_AUTH,
      'home/.gemini/trustedFolders.json': { '<ROOT>/proj': 'TRUST_ALL' },
    },
    args: ['-m', 'gemini-2.5-pro', '-p', 'hi'],
    turns: [{ text: 'Hi!' }],
  },
  {
    name: 'memory-hierarchy',
    about:
      'GEMINI.md files from the git root down to cwd and below it, an @import, a custom fileName list, global memory.',
    files: {
      'home/.gemini/settings.json': {
        security: { auth: { selectedType: 'gemini-api-key' } },
        context: { fileName: ['AGENTS.md', 'GEMINI.md'] },
      },
      'home/.gemini/trustedFolders.json': { '<ROOT>/repo': 'TRUST_FOLDER' },
      'home/.gemini/AGENTS.md': 'Global agents rule.\n',
      'repo/.git/HEAD': 'ref: refs/heads/main\n',
      'repo/GEMINI.md': 'Repo root rule. See @./docs/style.md\n',
      'repo/docs/style.md': 'Style: tabs.\n',
      'repo/pkg/AGENTS.md': 'Package agents rule.\n',
      'repo/pkg/GEMINI.md': 'Package gemini rule.\n',
      'repo/pkg/sub/GEMINI.md': 'Sub folder rule.\n',
      'repo/pkg/node_modules/dep/GEMINI.md': 'Must not load.\n',
      'repo/pkg/src/a.ts': 'export {};\n',
      'outside/GEMINI.md': 'Above the git root: must not load.\n',
    },
    cwd: 'repo/pkg',
    args: ['-m', 'gemini-2.5-pro', '-p', 'hi'],
    turns: [{ text: 'Hi!' }],
  },
  {
    name: 'memory-import-cycle',
    about: 'GEMINI.md importing a file that imports it back, and a missing import.',
    files: {
      ...API_KEY_AUTH,
      ...TRUST_PROJ,
      'proj/GEMINI.md': 'Top. @./a.md and @./missing.md\n',
      'proj/a.md': 'A imports top: @./GEMINI.md\n',
    },
    args: ['-m', 'gemini-2.5-pro', '-p', 'hi'],
    turns: [{ text: 'Hi!' }],
  },
  {
    name: 'tools-settings',
    about: 'tools.exclude and tools.core in the settings: the offered tools under --yolo.',
    files: {
      'home/.gemini/settings.json': {
        security: { auth: { selectedType: 'gemini-api-key' } },
        tools: {
          exclude: ['glob'],
          core: ['read_file', 'glob', 'run_shell_command', 'write_file'],
        },
      },
      ...TRUST_PROJ,
    },
    args: ['-m', 'gemini-2.5-pro', '-p', 'hi', '--yolo'],
    turns: [{ text: 'Hi!' }],
  },
  {
    name: 'tools-allowed-shell',
    about:
      'tools.allowed with run_shell_command(echo) in headless default mode: echo runs, ls is refused.',
    files: {
      'home/.gemini/settings.json': {
        security: { auth: { selectedType: 'gemini-api-key' } },
        tools: { allowed: ['run_shell_command(echo)'] },
      },
      ...TRUST_PROJ,
    },
    args: ['-m', 'gemini-2.5-pro', '-p', 'run things', '-o', 'json'],
    turns: [
      {
        calls: [
          { name: 'run_shell_command', args: { command: 'echo hello' } },
          { name: 'run_shell_command', args: { command: 'ls' } },
        ],
      },
      { text: 'Done.' },
    ],
  },
  {
    name: 'policy-flag',
    about:
      '--policy <file> replaces ~/.gemini/policies: its deny rule applies, the user dir does not.',
    files: {
      ...API_KEY_AUTH,
      ...TRUST_PROJ,
      'home/.gemini/policies/allow-rm.toml':
        '[[rule]]\ntoolName = "read_file"\ndecision = "deny"\npriority = 100\ndenyMessage = "user dir rule"\n',
      'pol/deny-read.toml':
        '[[rule]]\ntoolName = "read_file"\ndecision = "deny"\npriority = 100\ndenyMessage = "from --policy"\n',
      'proj/a.txt': 'hello\n',
    },
    args: [
      '-m',
      'gemini-2.5-pro',
      '-p',
      'read a.txt',
      '--policy',
      '<ROOT>/pol/deny-read.toml',
      '-o',
      'json',
    ],
    turns: [{ calls: [{ name: 'read_file', args: { file_path: 'a.txt' } }] }, { text: 'Refused.' }],
  },
  {
    name: 'policy-admin-flag',
    about: '--admin-policy denies what a user policy allows.',
    files: {
      ...API_KEY_AUTH,
      ...TRUST_PROJ,
      'home/.gemini/policies/allow.toml':
        '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "echo"\ndecision = "allow"\npriority = 900\n',
      'admin/deny.toml':
        '[[rule]]\ntoolName = "run_shell_command"\ndecision = "deny"\npriority = 1\ndenyMessage = "admin says no"\n',
    },
    args: ['-m', 'gemini-2.5-pro', '-p', 'echo', '--admin-policy', '<ROOT>/admin', '-o', 'json'],
    turns: [
      { calls: [{ name: 'run_shell_command', args: { command: 'echo hi' } }] },
      { text: 'Refused.' },
    ],
  },
  {
    name: 'max-session-turns',
    about: "model.maxSessionTurns 1 and a tool call: the run stops with gemini's turn-limit exit.",
    files: {
      'home/.gemini/settings.json': {
        security: { auth: { selectedType: 'gemini-api-key' } },
        model: { maxSessionTurns: 1 },
      },
      ...TRUST_PROJ,
      'proj/a.txt': 'hello\n',
    },
    args: ['-m', 'gemini-2.5-pro', '-p', 'read a.txt', '-o', 'json'],
    turns: [
      { calls: [{ name: 'read_file', args: { file_path: 'a.txt' } }] },
      { text: 'It says hello.' },
    ],
  },
  {
    name: 'json-stats-edit',
    about: '-o json after write_file and replace under --yolo: files and tool decision stats.',
    files: { ...API_KEY_AUTH, ...TRUST_PROJ, 'proj/b.txt': 'one\ntwo\nthree\n' },
    args: ['-m', 'gemini-2.5-pro', '-p', 'edit', '--yolo', '-o', 'json'],
    turns: [
      {
        text: 'Editing.',
        calls: [
          { name: 'write_file', args: { file_path: 'new.txt', content: 'a\nb\nc\n' } },
          {
            name: 'replace',
            args: {
              file_path: 'b.txt',
              old_string: 'two\n',
              new_string: '2\n22\n',
              instruction: 'x',
            },
          },
        ],
      },
      { text: 'Both done.' },
    ],
    check: ['proj/new.txt', 'proj/b.txt'],
  },
  {
    name: 'text-turns',
    about: '-o text with text before a tool call and after it.',
    files: { ...API_KEY_AUTH, ...TRUST_PROJ, 'proj/a.txt': 'hello\n' },
    args: ['-m', 'gemini-2.5-pro', '-p', 'read a.txt'],
    turns: [
      { text: 'Let me look.', calls: [{ name: 'read_file', args: { file_path: 'a.txt' } }] },
      { text: 'It says hello.' },
    ],
  },
  {
    name: 'stream-json-tools',
    about: '-o stream-json with a successful and a refused tool call.',
    files: { ...API_KEY_AUTH, ...TRUST_PROJ, 'proj/a.txt': 'hello\n' },
    args: ['-m', 'gemini-2.5-pro', '-p', 'go', '-o', 'stream-json'],
    turns: [
      {
        text: 'Working.',
        calls: [
          { name: 'read_file', args: { file_path: 'a.txt' } },
          { name: 'write_file', args: { file_path: 'x.txt', content: 'x' } },
        ],
      },
      { text: 'Done.' },
    ],
  },
  {
    name: 'session-resume',
    about:
      'A session with a thought, text and a tool call, then -r latest: what a resumed session sends.',
    files: { ...API_KEY_AUTH, ...TRUST_PROJ, 'proj/a.txt': 'hello\n' },
    args: ['-m', 'gemini-2.5-pro', '-p', 'read a.txt'],
    then: [['-m', 'gemini-2.5-pro', '-r', 'latest', '-p', 'and again?']],
    turns: [
      { text: 'Reading.', calls: [{ name: 'read_file', args: { file_path: 'a.txt' } }] },
      { text: 'It says hello.', thought: '**Answer** it is short' },
      { text: 'Still hello.' },
    ],
  },
  {
    name: 'write-todos',
    about:
      'write_todos under --yolo (headless gemini offers it only then), -o stream-json: its {todos} display in the session record.',
    files: { ...API_KEY_AUTH, ...TRUST_PROJ },
    args: ['-m', 'gemini-2.5-pro', '-p', 'plan it', '--yolo', '-o', 'stream-json'],
    turns: [
      {
        text: 'Planning.',
        calls: [
          {
            name: 'write_todos',
            args: {
              todos: [
                { description: 'Read the code', status: 'completed' },
                { description: 'Write the fix', status: 'in_progress' },
                { description: 'Run the tests', status: 'pending' },
              ],
            },
          },
        ],
      },
      { text: 'Planned.' },
    ],
  },
  {
    name: 'session-resume-missing',
    about:
      '-r with no session stored, then (one session stored) an unknown id and an index out of range.',
    files: { ...API_KEY_AUTH, ...TRUST_PROJ },
    args: ['-m', 'gemini-2.5-pro', '-r', '0f0f0f0f-0000-4000-8000-000000000000', '-p', 'hi'],
    then: [
      ['-m', 'gemini-2.5-pro', '-p', 'hi'],
      ['-m', 'gemini-2.5-pro', '-r', '0f0f0f0f-0000-4000-8000-000000000000', '-p', 'hi'],
      ['-m', 'gemini-2.5-pro', '-r', '7', '-p', 'hi'],
    ],
    turns: [{ text: 'Hi!' }],
  },
  {
    name: 'cli-usage-errors',
    about: 'Unknown flag, bad choice value, missing value, --sandbox.',
    files: { ...API_KEY_AUTH, ...TRUST_PROJ },
    args: ['--bogus-flag', '-p', 'hi'],
    then: [
      ['-o', 'xml', '-p', 'hi'],
      ['--approval-mode', 'sometimes', '-p', 'hi'],
      ['-p'],
      ['-y', '--approval-mode', 'yolo', '-p', 'hi'],
    ],
  },
  {
    name: 'include-directories',
    about: '--include-directories and context.includeDirectories in the <session_context>.',
    files: {
      'home/.gemini/settings.json': {
        security: { auth: { selectedType: 'gemini-api-key' } },
        context: { includeDirectories: ['<ROOT>/lib'] },
      },
      ...TRUST_PROJ,
      'lib/util.ts': 'export {};\n',
      'other/x.md': '# x\n',
      'proj/a.txt': 'hello\n',
    },
    args: ['-m', 'gemini-2.5-pro', '-p', 'hi', '--include-directories', '<ROOT>/other'],
    turns: [{ text: 'Hi!' }],
  },
  {
    name: 'extension-full',
    about:
      'A gemini-cli 0.61 extension with an MCP server, GEMINI.md, a skill, a command hook, a policy, an agent and a .env setting; a disabled one; four broken ones.',
    files: { ...API_KEY_AUTH, ...TRUST_PROJ, ...FULL_EXTENSION, 'proj/a.txt': 'hello\n' },
    args: ['-m', 'gemini-2.5-pro', '-p', 'Use the extension.', '--yolo', '-o', 'json'],
    turns: [
      {
        calls: [
          { name: 'mcp_tiny_echo', args: { text: 'hi' } },
          { name: 'run_shell_command', args: { command: 'rm a.txt', description: 'remove' } },
          { name: 'activate_skill', args: { name: 'greeter' } },
        ],
      },
      { text: 'Done.' },
    ],
    check: ['proj/a.txt', 'proj/ext-hook.jsonl'],
    then: [
      ['extensions', 'list'],
      ['-e', 'none', '-m', 'gemini-2.5-pro', '-p', 'hi', '-o', 'json'],
    ],
  },
);
