/**
 * Loading the optional peer dependencies (`openai`, `@agentclientprotocol/sdk`, `@modelcontextprotocol/sdk`)
 * when a feature first needs one. The package.json lists them under `peerDependencies` (optional), so a plain
 * `npm install gemini-agent-sdk` does not bring them; a feature that needs a missing one fails with a
 * {@link MissingDependencyError} that says what to install, never with Node's raw `ERR_MODULE_NOT_FOUND`.
 */
import { MissingDependencyError } from '../errors.js';

/** An optional peer dependency: its npm name, the range we support and the feature that needs it. */
export interface OptionalDependency {
  packageName: string;
  versionRange: string;
  feature: string;
}

/** The OpenAI-compatible provider (`openAICompatible()`, `openai:` / `ollama:` models, `--base-url`). */
export const OPENAI_PACKAGE: OptionalDependency = {
  packageName: 'openai',
  versionRange: '^6.49.0',
  feature: 'the OpenAI-compatible provider',
};

/** The ACP server mode (`GeminiCliAcpServer`, `gemini-agent --acp`). */
export const ACP_PACKAGE: OptionalDependency = {
  packageName: '@agentclientprotocol/sdk',
  versionRange: '^2.4.0',
  feature: 'the ACP server mode',
};

/** The MCP client (`mcpServers` in settings or options, `agent.mcp`). */
export const MCP_PACKAGE: OptionalDependency = {
  packageName: '@modelcontextprotocol/sdk',
  versionRange: '^1.32.2',
  feature: 'the MCP client',
};

/**
 * Runs `load` (a dynamic `import()` of the package, or of our module that imports it) and turns "package not
 * found" into a {@link MissingDependencyError}. Any other failure (a broken install, an error in the module)
 * is rethrown as it is.
 */
export async function loadOptional<T>(
  dependency: OptionalDependency,
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isMissingPackage(error, dependency.packageName)) {
      throw new MissingDependencyError(dependency, { cause: error });
    }
    throw error;
  }
}

/** Whether `error` (or its cause) is a module-resolution failure for `packageName`. */
export function isMissingPackage(error: unknown, packageName: string): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as NodeJS.ErrnoException).code;
    const notFound =
      code === 'ERR_MODULE_NOT_FOUND' ||
      code === 'MODULE_NOT_FOUND' ||
      /Cannot find (package|module)|Failed to (load|resolve)/.test(e.message);
    if (notFound && new RegExp(`['"]${escape(packageName)}(['"/])`).test(e.message)) return true;
  }
  return false;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
