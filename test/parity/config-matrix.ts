/**
 * The configuration matrix: settings, GEMINI.md, trust and policy fixtures run through gemini 0.61
 * (scripts/gemini-reference/record-config-matrix.ts records the facts below) and through gemini-agent (its run
 * and its `--show-config`; test/parity/config-matrix.test.ts). Paths are relative to a temp root: `home/` is HOME.
 */
import { contextFilesIn, type ShownContextFile } from '../../src/cli/show-config.js';
import type { Recording, Scenario } from './reference.js';
import { firstUserText, loadedContext, offeredTools, systemText } from './run-ours.js';

const AUTH = { security: { auth: { selectedType: 'gemini-api-key' } } };
const TRUST_PROJ = { 'home/.gemini/trustedFolders.json': { '<ROOT>/proj': 'TRUST_FOLDER' } };
const USER_AUTH = { 'home/.gemini/settings.json': AUTH };
const WORKSPACE = {
  'proj/.gemini/settings.json': { model: { name: 'gemini-2.5-flash-lite' } },
  'proj/GEMINI.md': 'Workspace rule: be brief.\n',
};

/** One cell of the matrix (every run is `-p hi`-like and offline). */
export const CONFIG_MATRIX: Scenario[] = [
  {
    name: 'matrix-no-settings',
    about:
      'No settings but the auth type, a trusted folder: the defaults. (gemini needs security.auth.selectedType here: ' +
      'with GOOGLE_GEMINI_BASE_URL, which points it at the fake server, it picks its gateway auth and refuses it ' +
      'headless, and it skips system settings files under the world-writable temp folder.)',
    files: { ...USER_AUTH, ...TRUST_PROJ },
    args: ['-p', 'hi'],
    // gemini's default model is `auto`: a routing call first (answered 400: it falls back to its default route).
    turns: [{ status: 400 }, { text: 'Hi!' }],
  },
  {
    name: 'matrix-user-model-alias',
    about: 'model.name "flash" (an alias) in the user settings.',
    files: { 'home/.gemini/settings.json': { ...AUTH, model: { name: 'flash' } }, ...TRUST_PROJ },
    args: ['-p', 'hi'],
    turns: [{ text: 'Hi!' }],
  },
  {
    name: 'matrix-trust-folder',
    about: 'TRUST_FOLDER on the project: its settings and GEMINI.md apply.',
    files: { ...USER_AUTH, ...TRUST_PROJ, ...WORKSPACE },
    args: ['-p', 'hi'],
    turns: [{ text: 'Hi!' }],
  },
  {
    name: 'matrix-trust-parent',
    about: 'TRUST_PARENT on a sibling folder trusts the project too.',
    files: {
      ...USER_AUTH,
      'home/.gemini/trustedFolders.json': { '<ROOT>/sibling': 'TRUST_PARENT' },
      'sibling/': '',
      ...WORKSPACE,
    },
    args: ['-p', 'hi'],
    turns: [{ text: 'Hi!' }],
  },
  {
    name: 'matrix-do-not-trust',
    about: 'DO_NOT_TRUST on the project: gemini refuses a headless run.',
    files: {
      ...USER_AUTH,
      'home/.gemini/trustedFolders.json': { '<ROOT>/proj': 'DO_NOT_TRUST' },
      ...WORKSPACE,
    },
    args: ['-m', 'gemini-2.5-pro', '-p', 'hi'],
    turns: [{ text: 'Hi!' }],
  },
  {
    name: 'matrix-longest-rule-wins',
    about: 'TRUST_FOLDER on the root, DO_NOT_TRUST on the project: the longer rule decides.',
    files: {
      ...USER_AUTH,
      'home/.gemini/trustedFolders.json': {
        '<ROOT>': 'TRUST_FOLDER',
        '<ROOT>/proj': 'DO_NOT_TRUST',
      },
      ...WORKSPACE,
    },
    args: ['-m', 'gemini-2.5-pro', '-p', 'hi'],
    turns: [{ text: 'Hi!' }],
  },
  {
    name: 'matrix-folder-trust-disabled',
    about: 'security.folderTrust.enabled false: no trust rule, the workspace still applies.',
    files: {
      'home/.gemini/settings.json': {
        security: { ...AUTH.security, folderTrust: { enabled: false } },
      },
      ...WORKSPACE,
    },
    args: ['-p', 'hi'],
    turns: [{ text: 'Hi!' }],
  },
  {
    name: 'matrix-context-filenames',
    about: 'context.fileName list, global and project files, nested @imports.',
    files: {
      'home/.gemini/settings.json': { ...AUTH, context: { fileName: ['CONTEXT.md', 'GEMINI.md'] } },
      ...TRUST_PROJ,
      'home/.gemini/CONTEXT.md': 'Global context. @./extra.md\n',
      'home/.gemini/extra.md': 'Global extra.\n',
      'proj/GEMINI.md': 'Gemini file. See @docs/a.md\n',
      'proj/CONTEXT.md': 'Context file.\n',
      'proj/docs/a.md': 'A, which imports @./b.md\n',
      'proj/docs/b.md': 'B.\n',
    },
    args: ['-m', 'gemini-2.5-pro', '-p', 'hi'],
    turns: [{ text: 'Hi!' }],
  },
  {
    name: 'matrix-tools-core-exclude',
    about: 'tools.core and tools.exclude, headless default mode.',
    files: {
      'home/.gemini/settings.json': {
        ...AUTH,
        tools: { core: ['read_file', 'grep_search', 'write_file', 'glob'], exclude: ['glob'] },
      },
      ...TRUST_PROJ,
    },
    args: ['-m', 'gemini-2.5-pro', '-p', 'hi'],
    turns: [{ text: 'Hi!' }],
  },
  {
    name: 'matrix-auto-edit',
    about: '--approval-mode auto_edit, headless: which tools are offered.',
    files: { ...USER_AUTH, ...TRUST_PROJ },
    args: ['-m', 'gemini-2.5-pro', '-p', 'hi', '--approval-mode', 'auto_edit'],
    turns: [{ text: 'Hi!' }],
  },
  {
    name: 'matrix-user-deny-yolo',
    about: 'A user policy denying rm under --yolo: the call is refused, the file stays.',
    files: {
      ...USER_AUTH,
      ...TRUST_PROJ,
      'home/.gemini/policies/no-rm.toml':
        '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "rm"\ndecision = "deny"\npriority = 100\n',
      'proj/keep.txt': 'keep\n',
    },
    args: ['-m', 'gemini-2.5-pro', '-p', 'remove keep.txt', '--yolo'],
    turns: [
      { calls: [{ name: 'run_shell_command', args: { command: 'rm -f keep.txt' } }] },
      { text: 'Refused.' },
    ],
    check: ['proj/keep.txt'],
  },
  {
    name: 'matrix-policy-file-yolo',
    about: '--policy <file> denying write_file under --yolo: not offered, and refused when called.',
    files: {
      ...USER_AUTH,
      ...TRUST_PROJ,
      'pol/no-write.toml':
        '[[rule]]\ntoolName = "write_file"\ndecision = "deny"\npriority = 10\ndenyMessage = "no writes here"\n',
    },
    args: ['-m', 'gemini-2.5-pro', '-p', 'write', '--yolo', '--policy', '<ROOT>/pol/no-write.toml'],
    turns: [
      { calls: [{ name: 'write_file', args: { file_path: 'out.txt', content: 'x' } }] },
      { text: 'Refused.' },
    ],
    check: ['proj/out.txt'],
  },
  {
    name: 'matrix-model-flag-over-env',
    about: '-m beats GEMINI_MODEL, which beats model.name.',
    files: {
      'home/.gemini/settings.json': { ...AUTH, model: { name: 'gemini-2.5-flash-lite' } },
      ...TRUST_PROJ,
    },
    env: { GEMINI_MODEL: 'gemini-2.5-flash' },
    args: ['-m', 'pro', '-p', 'hi'],
    turns: [{ text: 'Hi!' }],
  },
  {
    name: 'matrix-model-env-over-settings',
    about: 'GEMINI_MODEL (an alias) beats model.name.',
    files: {
      'home/.gemini/settings.json': { ...AUTH, model: { name: 'gemini-2.5-pro' } },
      ...TRUST_PROJ,
    },
    env: { GEMINI_MODEL: 'flash-lite' },
    args: ['-p', 'hi'],
    turns: [{ text: 'Hi!' }],
  },
];

/** What one tool call got back. */
export interface ToolOutcome {
  name: string;
  /** The `error` of the functionResponse (gemini's refusal text), without its "Did you mean" tail. */
  error: string | undefined;
}

/** The configuration facts of one run, as its requests show them. */
export interface ConfigFacts {
  exitCode: number | null;
  /** gemini refused to run headless in an untrusted folder (exit 55). */
  refusedUntrusted: boolean;
  /** Requests made before the first chat request (gemini's `auto` routing classifier; gemini-agent makes none). */
  routingCalls: number;
  /** The chat requests' model (undefined when none was sent). */
  model: string | undefined;
  generationConfig: unknown;
  /** Function declarations of the first chat request, sorted. */
  tools: string[];
  /** The `<loaded_context>` of the system instruction. */
  systemContext: string | undefined;
  /** The first user turn's first part (the `<session_context>`). */
  sessionContext: string | undefined;
  contextFiles: ShownContextFile[];
  /** The answers to the model's tool calls (the second chat request's functionResponses). */
  toolOutcomes: ToolOutcome[];
  /** The checked files after the run. */
  files: Record<string, string | null>;
}

const UNTRUSTED = 'Gemini CLI is not running in a trusted directory.';

/** The facts of a recording (gemini's or ours; the same extraction for both). */
export function configFacts(run: Recording): ConfigFacts {
  const chats = run.requests.filter((r) => r.method === 'generateContentStream');
  const first = chats[0];
  const system = first === undefined ? '' : systemText(first.body);
  const session = first === undefined ? undefined : firstUserText(first.body);
  return {
    exitCode: run.exitCode,
    refusedUntrusted: run.stderr.includes(UNTRUSTED),
    routingCalls: Math.max(
      0,
      run.requests.findIndex((r) => r.method === 'generateContentStream'),
    ),
    model: first?.model,
    generationConfig: (first?.body as { generationConfig?: unknown } | undefined)?.generationConfig,
    tools: first === undefined ? [] : offeredTools(first.body).sort(),
    systemContext: loadedContext(system),
    sessionContext: session,
    contextFiles: [
      ...contextFilesIn(system, 'systemInstruction'),
      ...contextFilesIn(session ?? '', 'sessionContext'),
    ],
    toolOutcomes: toolOutcomes(chats[1]?.body),
    files: run.files,
  };
}

function toolOutcomes(body: unknown): ToolOutcome[] {
  const contents =
    (body as { contents?: Array<{ parts?: Array<Record<string, unknown>> }> } | undefined)
      ?.contents ?? [];
  return contents
    .flatMap((c) => c.parts ?? [])
    .flatMap((p) => {
      const fr = p['functionResponse'] as
        { name: string; response: Record<string, unknown> } | undefined;
      if (fr === undefined) return [];
      const error = fr.response['error'];
      return [
        {
          name: fr.name,
          error: typeof error === 'string' ? error.replace(/ Did you mean.*$/s, '') : undefined,
        },
      ];
    });
}

/** A recorded cell: the scenario and gemini 0.61's facts. */
export interface MatrixRecording {
  scenario: Scenario;
  facts: ConfigFacts;
}
