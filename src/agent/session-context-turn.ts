import { getFolderStructure } from '../skills/folder-structure.js';

/** What the first user turn's `<session_context>` says. */
export interface SessionContextInput {
  /** The workspace folders: the working directory first, then the extra roots. */
  workspaceDirs: readonly string[];
  /** `~/.gemini/tmp/<project>`. */
  projectTempDir: string;
  /** `context.includeDirectoryTree` (default true): list each workspace folder's tree. */
  includeDirectoryTree?: boolean;
  /** Extension context files, rendered (`<extension_context>`). */
  extensionMemory?: string;
  /** The workspace's context files, rendered (`<project_context>`). */
  projectMemory?: string;
  /** `context.discoveryMaxDirs` is not the tree limit; gemini-cli lists up to 200 items per folder. */
  now?: Date;
  platform?: NodeJS.Platform;
}

/** The stable id gemini-cli gives the session-context message: sha256("environment-context"), 32 hex digits. */
export const SESSION_CONTEXT_MESSAGE_ID = 'd04923d38bb0f6017037e74183378ef4';

function isText(value: string | undefined): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/** The `<loaded_context>` block of the first user turn (extension, then project context), or `''`. */
export function renderSessionMemory(extension?: string, project?: string): string {
  const sections: string[] = [];
  if (isText(extension))
    sections.push(`<extension_context>\n${extension.trim()}\n</extension_context>`);
  if (isText(project)) sections.push(`<project_context>\n${project.trim()}\n</project_context>`);
  return sections.length === 0
    ? ''
    : `\n<loaded_context>\n${sections.join('\n')}\n</loaded_context>`;
}

const DATE_OPTIONS: Intl.DateTimeFormatOptions = {
  weekday: 'long',
  year: 'numeric',
  month: 'long',
  day: 'numeric',
};
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * `now.toLocaleDateString(undefined, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' })`, as
 * gemini-cli writes it: the date in the user's locale and time zone. When the default locale is `en-US` (also what
 * `LANG=C` / `C.UTF-8` / `POSIX` give) it is spelled out by hand, `Thursday, December 3, 2026`: the first
 * date formatting of a process loads ICU's date data, about 25 ms of CPU and 7 MiB of RSS, a tenth of a one-shot
 * CLI run (goal P1). `Intl.PluralRules` tells the default locale without that data. Years outside 1000–9999 and
 * every other locale go to ICU.
 */
export function sessionDate(now: Date): string {
  const year = now.getFullYear();
  if (year >= 1000 && year <= 9999 && new Intl.PluralRules().resolvedOptions().locale === 'en-US')
    return enUsDate(now);
  return now.toLocaleDateString(undefined, DATE_OPTIONS);
}

/** `now.toLocaleDateString('en-US', …)` of {@link sessionDate}, for a year in 1000–9999, without ICU. */
export function enUsDate(now: Date): string {
  return `${WEEKDAYS[now.getDay()]}, ${MONTHS[now.getMonth()]} ${now.getDate()}, ${now.getFullYear()}`;
}

/**
 * gemini-cli's `<session_context>` text, sent as the first part of the first user turn: the date in the user's
 * locale, the OS, the project's temporary folder, the workspace folders with a tree of each (up to 200 items),
 * and the workspace's context files.
 */
export async function buildSessionContextText(input: SessionContextInput): Promise<string> {
  const today = sessionDate(input.now ?? new Date());
  let directories = '';
  if (input.includeDirectoryTree ?? true) {
    const trees = await Promise.all(input.workspaceDirs.map((dir) => getFolderStructure(dir)));
    directories =
      `- **Workspace Directories:**\n${input.workspaceDirs.map((d) => `  - ${d}`).join('\n')}\n` +
      `- **Directory Structure:**\n\n${trees.join('\n')}`;
  }
  const memory = renderSessionMemory(input.extensionMemory, input.projectMemory);
  return `
<session_context>
This is the Gemini CLI. We are setting up the context for our chat.
Today's date is ${today} (formatted according to the user's locale).
My operating system is: ${input.platform ?? process.platform}
The project's temporary directory is: ${input.projectTempDir}
${directories}

${memory}
</session_context>`.trim();
}
