import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MissingDependencyError } from '../errors.js';
import {
  ACP_PACKAGE,
  isMissingPackage,
  loadOptional,
  MCP_PACKAGE,
  OPENAI_PACKAGE,
} from './optional-dependency.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

describe('optional peer dependencies', () => {
  it.each([OPENAI_PACKAGE, ACP_PACKAGE, MCP_PACKAGE])(
    '$packageName is an optional peer with the range the error names, and a pinned devDependency',
    (dependency) => {
      expect(pkg.peerDependencies[dependency.packageName]).toBe(dependency.versionRange);
      expect(pkg.peerDependenciesMeta[dependency.packageName]?.optional).toBe(true);
      expect(pkg.dependencies[dependency.packageName]).toBeUndefined();
      expect(pkg.devDependencies[dependency.packageName]).toMatch(/^\d+\.\d+\.\d+$/);
    },
  );

  it('a package that cannot be found becomes MissingDependencyError with the install command', async () => {
    const name = 'gemini-agent-sdk-no-such-package';
    const dependency = { packageName: name, versionRange: '^1.0.0', feature: 'the test feature' };
    const error = await loadOptional(dependency, () => import(name)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingDependencyError);
    expect(error).toMatchObject({ code: 'MISSING_DEPENDENCY', packageName: name });
    expect((error as Error).message).toBe(
      `The test feature needs the package ${name}, which is not installed: run npm install ` +
        `"${name}@^1.0.0" (it is an optional peer dependency of gemini-agent-sdk).`,
    );
    expect((error as Error).cause).toBeInstanceOf(Error);
  });

  it('other failures pass through unchanged', async () => {
    const boom = new TypeError('boom');
    await expect(loadOptional(MCP_PACKAGE, () => Promise.reject(boom))).rejects.toBe(boom);
    // A missing package that is not the optional one (a broken install of a transitive dependency).
    const other = Object.assign(
      new Error(
        "Cannot find package 'eventsource' imported from /x/node_modules/@modelcontextprotocol/sdk/a.js",
      ),
      { code: 'ERR_MODULE_NOT_FOUND' },
    );
    expect(isMissingPackage(other, '@modelcontextprotocol/sdk')).toBe(false);
    await expect(loadOptional(MCP_PACKAGE, () => Promise.reject(other))).rejects.toBe(other);
  });

  it('recognises Node’s messages for the package and its subpaths, also as a cause', () => {
    const node = Object.assign(
      new Error(
        "Cannot find package '@modelcontextprotocol/sdk' imported from /app/dist/mcp/mcp-connection.js",
      ),
      { code: 'ERR_MODULE_NOT_FOUND' },
    );
    expect(isMissingPackage(node, '@modelcontextprotocol/sdk')).toBe(true);
    expect(
      isMissingPackage(new Error('wrapped', { cause: node }), '@modelcontextprotocol/sdk'),
    ).toBe(true);
    const cjs = Object.assign(new Error("Cannot find module 'openai/streaming'"), {
      code: 'MODULE_NOT_FOUND',
    });
    expect(isMissingPackage(cjs, 'openai')).toBe(true);
    expect(isMissingPackage(cjs, 'open')).toBe(false);
    expect(isMissingPackage('not an error', 'openai')).toBe(false);
  });
});
