/** Directories gemini-cli's searches always skip (its `getGlobExcludes`). */
export const SEARCH_EXCLUDES: readonly string[] = [
  '**/node_modules/**',
  '**/.git/**',
  '**/bower_components/**',
  '**/.svn/**',
  '**/.hg/**',
];

/**
 * What `read_many_files` leaves out unless `useDefaultExcludes` is false: dependency and build folders, VCS
 * and editor folders, compiled and archive files (gemini-cli's `getReadManyFilesExcludes`).
 */
export const READ_MANY_FILES_EXCLUDES: readonly string[] = [
  ...SEARCH_EXCLUDES,
  '**/.vscode/**',
  '**/.idea/**',
  '**/dist/**',
  '**/build/**',
  '**/coverage/**',
  '**/__pycache__/**',
  '**/*.pyc',
  '**/*.pyo',
  '**/*.bin',
  '**/*.exe',
  '**/*.dll',
  '**/*.so',
  '**/*.dylib',
  '**/*.class',
  '**/*.jar',
  '**/*.war',
  '**/*.zip',
  '**/*.tar',
  '**/*.gz',
  '**/*.bz2',
  '**/*.rar',
  '**/*.7z',
  '**/*.doc',
  '**/*.docx',
  '**/*.xls',
  '**/*.xlsx',
  '**/*.ppt',
  '**/*.pptx',
  '**/*.odt',
  '**/*.ods',
  '**/*.odp',
  '**/.DS_Store',
  '**/.env',
];
