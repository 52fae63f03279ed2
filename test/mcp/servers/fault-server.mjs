#!/usr/bin/env node
// A tiny MCP server over stdio for the fault tests, on the MCP SDK's low-level Server (so it can send tool
// definitions the high-level API would refuse). FAULT_MODE picks what it does:
//   default   — tools: echo, crash (exits mid-call), hang (never answers), big (10 MB of text), fail (isError),
//               progress (3 progress notifications), spawn (starts a grandchild `sleep`, returns its pid),
//               grow (adds a tool and sends tools/list_changed), bad-schema, bad-definition, "a b" and "a_b"
//   many      — 500 tools
//   hang-init — never answers initialize
//   exit      — exits at once (before initialize)
//   empty     — no tools, prompts or resources
// FAULT_PID_FILE, when set, receives the server's pid.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import process from 'node:process';
import { setImmediate } from 'node:timers';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

const mode = process.env.FAULT_MODE ?? 'default';
if (process.env.FAULT_PID_FILE) writeFileSync(process.env.FAULT_PID_FILE, String(process.pid));
if (mode === 'exit') {
  process.stderr.write('fault server: exiting at once\n');
  process.exit(3);
}

const objectSchema = (properties = {}) => ({ type: 'object', properties });
let extra = [];
const tools = () => {
  if (mode === 'many') {
    return Array.from({ length: 500 }, (_, i) => ({
      name: `tool_${i}`,
      description: `Tool number ${i}`,
      inputSchema: objectSchema({ n: { type: 'number' } }),
    }));
  }
  if (mode === 'empty') return [];
  return [
    {
      name: 'echo',
      description: 'Echoes its text',
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string' }, note: { type: ['string', 'null'] } },
        required: ['text'],
      },
      annotations: { readOnlyHint: true },
    },
    { name: 'crash', description: 'Exits mid-call', inputSchema: objectSchema() },
    { name: 'hang', description: 'Never answers', inputSchema: objectSchema() },
    { name: 'big', description: '10 MB of text', inputSchema: objectSchema() },
    { name: 'fail', description: 'Reports an error', inputSchema: objectSchema() },
    { name: 'progress', description: 'Reports progress', inputSchema: objectSchema() },
    { name: 'spawn', description: 'Starts a grandchild', inputSchema: objectSchema() },
    { name: 'grow', description: 'Adds a tool', inputSchema: objectSchema() },
    {
      name: 'bad-schema',
      description: 'Invalid JSON Schema',
      inputSchema: { type: 'object', properties: { x: { type: 'no-such-type' } } },
    },
    { name: 'bad-definition', description: 'Not a valid tool', inputSchema: { type: 'string' } },
    { name: 'a b', description: 'Collides with a_b', inputSchema: objectSchema() },
    { name: 'a_b', description: 'Collides with "a b"', inputSchema: objectSchema() },
    ...extra,
  ];
};

const server = new Server(
  { name: 'fault-server', version: '1.0.0' },
  { capabilities: mode === 'empty' ? {} : { tools: { listChanged: true } } },
);

if (mode === 'hang-init') {
  server.setRequestHandler(InitializeRequestSchema, () => new Promise(() => {}));
}

if (mode !== 'empty') server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools() }));

const text = (value) => ({ content: [{ type: 'text', text: value }] });

if (mode !== 'empty')
  server.setRequestHandler(CallToolRequestSchema, async (request, extraInfo) => {
    const { name, arguments: args = {} } = request.params;
    switch (name) {
      case 'echo':
        return text(`echo: ${args.text}`);
      case 'crash':
        process.stderr.write('fault server: crashing now\n');
        setImmediate(() => process.exit(7));
        return new Promise(() => {});
      case 'hang':
        return new Promise(() => {});
      case 'big':
        return text('x'.repeat(10 * 1024 * 1024));
      case 'fail':
        return { content: [{ type: 'text', text: 'it went wrong' }], isError: true };
      case 'progress': {
        const token = request.params._meta?.progressToken;
        for (let i = 1; i <= 3; i++) {
          if (token !== undefined) {
            await extraInfo.sendNotification({
              method: 'notifications/progress',
              params: { progressToken: token, progress: i, total: 3, message: `step ${i}` },
            });
          }
        }
        return text('done');
      }
      case 'spawn': {
        const child = spawn('sleep', ['300'], { stdio: 'ignore' });
        return text(String(child.pid));
      }
      case 'grow':
        extra = [
          {
            name: `grown_${extra.length + 1}`,
            description: 'Added later',
            inputSchema: objectSchema(),
          },
        ];
        await server.sendToolListChanged();
        return text('grown');
      default:
        if (
          name.startsWith('tool_') ||
          name.startsWith('grown_') ||
          name === 'a b' ||
          name === 'a_b'
        ) {
          return text(`${name} ran`);
        }
        return { content: [{ type: 'text', text: `unknown tool ${name}` }], isError: true };
    }
  });

await server.connect(new StdioServerTransport());
