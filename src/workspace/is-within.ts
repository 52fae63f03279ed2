import path from 'node:path';

/** True when `child` is `root` or lies under it (both absolute and normalised). */
export function isWithin(child: string, root: string): boolean {
  const fold = process.platform === 'darwin' || process.platform === 'win32';
  const a = fold ? child.toLowerCase() : child;
  const b = fold ? root.toLowerCase() : root;
  const relative = path.relative(b, a);
  return (
    relative === '' ||
    (!relative.startsWith(`..${path.sep}`) && relative !== '..' && !path.isAbsolute(relative))
  );
}
