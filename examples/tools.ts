/**
 * Custom tools: the model calls `add`; the SDK checks the arguments against the Zod schema, runs the action
 * and sends the result back to the model, which then answers.
 *
 * Run: npx tsx examples/tools.ts   (replays examples/replays/tools.jsonl unless GEMINI_API_KEY is set)
 */
import './temp-home.js';
import { fileURLToPath } from 'node:url';
import { GeminiCliAgent, tool, z } from 'gemini-agent-sdk';

const fakeResponses = process.env['GEMINI_API_KEY']
  ? undefined
  : fileURLToPath(new URL('./replays/tools.jsonl', import.meta.url));

const addTool = tool(
  {
    name: 'add',
    description: 'add two numbers',
    inputSchema: z.object({
      a: z.number().describe('first number to add'),
      b: z.number().describe('second number to add'),
    }),
  },
  (params) => ({ result: params.a + params.b }),
);

const toolAgent = new GeminiCliAgent({
  instructions: 'Assistant',
  tools: [addTool],
  fakeResponses,
});

const session = toolAgent.session();
for await (const chunk of session.sendStream('what is 23 + 79?')) {
  switch (chunk.type) {
    case 'tool_call_request':
      console.log(`[model calls] ${chunk.value.name}(${JSON.stringify(chunk.value.args)})`);
      break;
    case 'tool_call_response': {
      // resultDisplay is text, or a todo list object for write_todos.
      const shown = chunk.value.resultDisplay ?? '';
      const text = typeof shown === 'string' ? shown : JSON.stringify(shown);
      console.log(`[tool result] ${text.replace(/\s+/g, ' ')}`);
      break;
    }
    case 'content':
      process.stdout.write(chunk.value);
      break;
  }
}
process.stdout.write('\n');
