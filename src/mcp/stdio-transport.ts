import type * as ChildProcesses from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { terminateGroup, trackGroup, untrackGroup } from './process-groups.js';
import { builtinModule } from '../lazy-require.js';

/** What {@link ProcessGroupStdioTransport} starts. */
export interface StdioServerLaunch {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd?: string | undefined;
  /** The longest line (one JSON-RPC message) accepted from the server, in bytes. */
  maxMessageBytes: number;
  /** How long a server may take to exit after SIGTERM before it is killed (ms). */
  killGraceMs: number;
  /** Receives the server's stderr. */
  onStderr?: (chunk: string) => void;
}

/**
 * The stdio transport of the MCP client: the server runs as the leader of a new process group, its stdout is
 * split into lines that the MCP SDK deserializes (`deserializeMessage`), and messages go out serialized by the SDK
 * (`serializeMessage`). Unlike the SDK's `StdioClientTransport`, `close()` ends the whole group (the server and every
 * process it started), SIGTERM then SIGKILL, and the group is killed when this process exits; a line is collected
 * from chunks without re-copying the buffer, so a 10 MB result costs one copy.
 */
export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcess | undefined;
  private chunks: Buffer[] = [];
  private pending = 0;
  private closed = false;
  private exit: Promise<void> | undefined;

  constructor(private readonly launch: StdioServerLaunch) {}

  /** The server's pid (the id of its process group), once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('The stdio transport was already started.');
    return new Promise((resolve, reject) => {
      const child = builtinModule<typeof ChildProcesses>('node:child_process').spawn(
        this.launch.command,
        [...this.launch.args],
        {
          env: this.launch.env,
          ...(this.launch.cwd === undefined ? {} : { cwd: this.launch.cwd }),
          stdio: ['pipe', 'pipe', 'pipe'],
          detached: process.platform !== 'win32',
          windowsHide: true,
          shell: false,
        },
      );
      this.child = child;
      let spawned = false;
      this.exit = new Promise((done) => {
        child.once('close', () => done());
        // A command that cannot start emits 'error' instead of 'spawn' (and may never emit 'close').
        child.once('error', () => {
          if (!spawned) done();
        });
      });
      child.once('error', (error) => {
        if (spawned) return this.fail(error);
        reject(error);
      });
      child.once('spawn', () => {
        spawned = true;
        if (child.pid !== undefined) trackGroup(child.pid);
        resolve();
      });
      child.once('close', () => {
        if (child.pid !== undefined && this.closed) untrackGroup(child.pid);
        this.finish();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.receive(chunk));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => this.launch.onStderr?.(chunk));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.closed || !stdin.writable) {
      return Promise.reject(new Error('Not connected'));
    }
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Ends the server's process group (SIGTERM, then SIGKILL after the grace period) and waits for it. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const child = this.child;
    this.chunks = [];
    if (child === undefined) return this.finish();
    try {
      child.stdin?.end();
    } catch {
      // already closed
    }
    if (child.pid !== undefined) await terminateGroup(child.pid, this.launch.killGraceMs);
    else child.kill('SIGKILL');
    await this.exit;
  }

  private receive(chunk: Buffer): void {
    let start = 0;
    for (let index = chunk.indexOf(10); index !== -1; index = chunk.indexOf(10, start)) {
      this.chunks.push(chunk.subarray(start, index));
      const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
      this.chunks = [];
      this.pending = 0;
      start = index + 1;
      if (line.trim() !== '') this.deliver(line);
    }
    if (start < chunk.length) {
      this.pending += chunk.length - start;
      if (this.pending > this.launch.maxMessageBytes) {
        this.chunks = [];
        this.pending = 0;
        this.fail(
          new Error(
            `The server sent a message larger than ${this.launch.maxMessageBytes} bytes; the connection was closed.`,
          ),
        );
        void this.close();
        return;
      }
      this.chunks.push(chunk.subarray(start));
    }
  }

  private deliver(line: string): void {
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.onmessage?.(message);
  }

  private fail(error: Error): void {
    this.onerror?.(error);
  }

  private finish(): void {
    const child = this.child;
    if (child !== undefined && !this.closed && child.pid !== undefined) {
      // The server exited on its own: end what it left behind in its group.
      void terminateGroup(child.pid, this.launch.killGraceMs);
    }
    this.closed = true;
    const onclose = this.onclose;
    this.onclose = undefined;
    onclose?.();
  }
}
