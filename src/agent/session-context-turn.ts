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

/**
 * gemini-cli's `<session_context>` text, sent as the first part of the first user turn: the date in the user's
 * locale, the OS, the project's temporary folder, the workspace folders with a tree of each (up to 200 items),
 * and the workspace's context files.
 */
export async function buildSessionContextText(input: SessionContextInput): Promise<string> {
  const now = input.now ?? new Date();
  const today = now.toLocaleDateString(undefined, {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  });
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
