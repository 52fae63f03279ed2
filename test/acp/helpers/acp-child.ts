import { spawn, type ChildProcess } from 'node:child_process';
import * as acp from '@agentclientprotocol/sdk';
import { CLI_MAIN } from '../../cli/helpers/built-cli.js';
import { TestAcpClient } from './acp-client.js';

/** `gemini-agent --acp` as a real child process, with a real ACP client on its stdio. */
export interface AcpChild {
  child: ChildProcess;
  client: TestAcpClient;
  connection: acp.ClientConnection;
  ctx: acp.ClientContext;
  /** Every byte the child wrote to stdout, as text. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once the child exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Closes the child's stdin (the editor goes away). */
  closeStdin(): void;
}

/**
 * Starts `node dist/cli/main.js --acp …args` in `cwd` with `env`. With `raw`, no client is attached (the test
 * writes bytes to `child.stdin` and reads `child.stdout` itself).
 */
export function spawnAcpChild(
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  raw = false,
): AcpChild {
  const child = spawn(process.execPath, [CLI_MAIN, '--acp', ...args], {
    cwd,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  const stdin = child.stdin!;
  stdin.on('error', () => undefined);
  const readable = new ReadableStream<Uint8Array>({
    start(controller) {
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        if (!raw) controller.enqueue(new Uint8Array(chunk));
      });
      child.stdout!.on('end', () => controller.close());
    },
  });
  const writable = new WritableStream<Uint8Array>({
    write(chunk) {
      return new Promise((resolve, reject) =>
        stdin.write(chunk, (error) => (error ? reject(error) : resolve())),
      );
    },
  });
  const client = new TestAcpClient();
  const connection = client.app.connect(acp.ndJsonStream(writable, readable));
  return {
    child,
    client,
    connection,
    ctx: connection.agent,
    stdout: () => out,
    stderr: () => err,
    exited,
    closeStdin: () => stdin.end(),
  };
}

/** Every stdout line is one JSON-RPC 2.0 message (nothing else may reach stdout in ACP mode). */
export function assertOnlyProtocol(stdout: string): void {
  for (const line of stdout.split('\n')) {
    if (line.trim() === '') continue;
    const message = JSON.parse(line) as { jsonrpc?: unknown };
    if (message.jsonrpc !== '2.0') throw new Error(`not a JSON-RPC message on stdout: ${line}`);
  }
}

/** True while a process with this pid exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits (polling, bounded) until `test` holds. */
export async function eventually(
  test: () => boolean | Promise<boolean>,
  what: string,
  ms = 10_000,
): Promise<void> {
  const until = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
