import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sdkVersion } from './model/client-headers.js';
import { ownPackageJson, ownVersion } from './package-json.js';

describe('ownPackageJson', () => {
  it("finds this package's package.json by its name (not the nearest one)", () => {
    const root = JSON.parse(readFileSync(resolve(process.cwd(), 'package.json'), 'utf8')) as {
      name: string;
      version: string;
    };
    expect(root.name).toBe('gemini-agent-sdk');
    expect(ownPackageJson()).toMatchObject({ name: 'gemini-agent-sdk', version: root.version });
    expect(ownVersion()).toBe(root.version);
    expect(sdkVersion()).toBe(root.version);
  });
});
