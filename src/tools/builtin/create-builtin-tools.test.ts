import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../errors.js';
import { BUILTIN_TOOL_NAMES, createBuiltinTools } from './create-builtin-tools.js';

describe('createBuiltinTools', () => {
  const needs = {
    webSearch: () => Promise.resolve({ text: '' }),
    memory: {
      globalFile: () => '/m/GEMINI.md',
      projectFile: () => Promise.resolve('/m/MEMORY.md'),
    },
    askUser: () => ({ cancelled: true as const }),
  };

  it('builds every tool with gemini-cli names, display names and kinds', () => {
    const tools = createBuiltinTools('all', needs);
    expect(tools.map((t) => [t.name, t.displayName, t.kind])).toEqual([
      ['list_directory', 'ReadFolder', 'search'],
      ['read_file', 'ReadFile', 'read'],
      ['grep_search', 'SearchText', 'search'],
      ['glob', 'FindFiles', 'search'],
      ['replace', 'Edit', 'edit'],
      ['write_file', 'WriteFile', 'edit'],
      ['web_fetch', 'WebFetch', 'fetch'],
      ['run_shell_command', 'Shell', 'execute'],
      ['read_many_files', 'ReadManyFiles', 'read'],
      ['google_web_search', 'GoogleSearch', 'search'],
      ['write_todos', 'WriteTodos', 'other'],
      ['save_memory', 'SaveMemory', 'think'],
      ['ask_user', 'Ask User', 'other'],
    ]);
    for (const tool of tools) {
      expect(tool.parametersJsonSchema).toMatchObject({ type: 'object' });
      expect(tool.description.length).toBeGreaterThan(20);
    }
  });

  it('leaves out the tools that need the agent (model client, memory files) when not told how', () => {
    expect(createBuiltinTools('all').map((t) => t.name)).not.toContain('google_web_search');
    expect(createBuiltinTools('all').map((t) => t.name)).not.toContain('ask_user');
    expect(createBuiltinTools(['save_memory', 'write_todos']).map((t) => t.name)).toEqual([
      'write_todos',
    ]);
  });

  it('selects read-only tools, names (with the legacy alias), or none', () => {
    expect(createBuiltinTools('read-only', needs).map((t) => t.name)).toEqual([
      'list_directory',
      'read_file',
      'grep_search',
      'glob',
      'web_fetch',
      'read_many_files',
      'google_web_search',
      'ask_user',
    ]);
    expect(
      createBuiltinTools(['read_file', 'search_file_content', 'read_file']).map((t) => t.name),
    ).toEqual(['read_file', 'grep_search']);
    expect(createBuiltinTools(false)).toEqual([]);
    expect(createBuiltinTools([])).toEqual([]);
  });

  it('rejects unknown names with the list of valid ones', () => {
    expect(() => createBuiltinTools(['read_file', 'rm_rf'])).toThrow(ConfigurationError);
    expect(() => createBuiltinTools(['rm_rf'])).toThrow(
      `Unknown built-in tool: "rm_rf". Valid names: ${BUILTIN_TOOL_NAMES.join(', ')}.`,
    );
    expect(() => createBuiltinTools('everything' as never)).toThrow(ConfigurationError);
  });
});
