/**
 * The `file_filtering_options` parameter shared by `list_directory` and `read_many_files`, worded as gemini-cli
 * declares it; only the object's own description differs between the two tools.
 */
export function fileFilteringSchema(description: string): Record<string, unknown> {
  return {
    description,
    type: 'object',
    properties: {
      respect_git_ignore: {
        description:
          'Optional: Whether to respect .gitignore patterns when listing files. Only available in git repositories. Defaults to true.',
        type: 'boolean',
      },
      respect_gemini_ignore: {
        description:
          'Optional: Whether to respect .geminiignore patterns when listing files. Defaults to true.',
        type: 'boolean',
      },
    },
  };
}
