/**
 * One harness per way of reaching a model, so the scripted scenarios run unchanged against each: the same
 * neutral turns (`textTurn`, `callTurn`) are served by the provider's loopback fake in its own wire format, and
 * what the model received is read back from the fake's requests in one normalised form.
 */
import type { Content, GenerateContentResponse } from '@google/genai';
import type { GeminiCliAgentOptions } from '../../src/index.js';
import { openAICompatible } from '../../src/index.js';
import { FakeGeminiServer, FakeOpenAIServer } from '../../src/testing/index.js';
import { createAuthFixture, expiredCredentials, type AuthFixture } from '../auth/auth-fixture.js';

/** One entry of the conversation a request carried, whatever the wire format. */
export interface SeenEntry {
  role: 'user' | 'model';
  kind: 'text' | 'call' | 'response';
  /** Text of a text entry. */
  text?: string;
  /** Tool name of a call or response. */
  name?: string;
  /** Arguments of a call. */
  args?: unknown;
  /** A response's `output` string, or the JSON of the whole response. */
  data?: string;
}

export interface ProviderHarness {
  readonly name: string;
  /** Starts the fakes, answering with `turns` in order; returns the agent options that reach them. */
  start(turns: GenerateContentResponse[][]): Promise<GeminiCliAgentOptions>;
  /** How many model requests were made. */
  requestCount(): number;
  /** The conversation of model request `index` (system instruction excluded). */
  seen(index: number): SeenEntry[];
  dispose(): Promise<void>;
}

function responseData(response: Record<string, unknown> | undefined): string {
  const keys = Object.keys(response ?? {});
  if (keys.length === 1 && typeof response?.['output'] === 'string') return response['output'];
  return JSON.stringify(response ?? {});
}

function fromContents(contents: Content[]): SeenEntry[] {
  const out: SeenEntry[] = [];
  for (const c of contents) {
    const role = c.role === 'model' ? 'model' : 'user';
    for (const p of c.parts ?? []) {
      if (p.thought) continue;
      if (p.functionCall)
        out.push({
          role,
          kind: 'call',
          name: p.functionCall.name,
          args: p.functionCall.args ?? {},
        });
      else if (p.functionResponse) {
        out.push({
          role,
          kind: 'response',
          name: p.functionResponse.name,
          data: responseData(p.functionResponse.response),
        });
      } else if (typeof p.text === 'string' && p.text !== '')
        out.push({ role, kind: 'text', text: p.text });
    }
  }
  return out;
}

type OpenAIMessage = {
  role: string;
  content?: unknown;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
};

function fromMessages(messages: OpenAIMessage[]): SeenEntry[] {
  const out: SeenEntry[] = [];
  const names = new Map<string, string>();
  for (const m of messages) {
    if (m.role === 'system') continue;
    if (m.role === 'tool') {
      out.push({
        role: 'user',
        kind: 'response',
        name: names.get(m.tool_call_id ?? ''),
        data: String(m.content),
      });
      continue;
    }
    const role = m.role === 'assistant' ? 'model' : 'user';
    const texts =
      typeof m.content === 'string'
        ? [m.content]
        : Array.isArray(m.content)
          ? m.content.map((p: { text?: string }) => p.text ?? '')
          : [];
    for (const t of texts) if (t !== '') out.push({ role, kind: 'text', text: t });
    for (const call of m.tool_calls ?? []) {
      names.set(call.id, call.function.name);
      out.push({
        role,
        kind: 'call',
        name: call.function.name,
        args: JSON.parse(call.function.arguments),
      });
    }
  }
  return out;
}

class GeminiApiHarness implements ProviderHarness {
  readonly name: string = 'Gemini API (gemini-api-key)';
  private server: FakeGeminiServer | undefined;
  private fixture: AuthFixture | undefined;

  async start(turns: GenerateContentResponse[][]): Promise<GeminiCliAgentOptions> {
    this.fixture = await createAuthFixture();
    this.server = new FakeGeminiServer({ turns });
    return { apiKey: 'test-key', baseUrl: await this.server.start() };
  }
  requestCount(): number {
    return this.server?.requests.length ?? 0;
  }
  seen(index: number): SeenEntry[] {
    return fromContents(
      ((this.server?.requests[index]?.body as { contents?: Content[] }) ?? {}).contents ?? [],
    );
  }
  async dispose(): Promise<void> {
    await this.server?.close();
    await this.fixture?.dispose();
  }
}

class VertexAdcHarness extends GeminiApiHarness {
  override readonly name = 'Vertex AI with ADC from the metadata server (vertex-ai)';
  private vertex: FakeGeminiServer | undefined;
  private fx: AuthFixture | undefined;

  override async start(turns: GenerateContentResponse[][]): Promise<GeminiCliAgentOptions> {
    this.fx = await createAuthFixture();
    this.vertex = new FakeGeminiServer({ turns });
    this.fx.setEnv({
      GOOGLE_GENAI_USE_VERTEXAI: 'true',
      GOOGLE_CLOUD_PROJECT: 'p',
      GOOGLE_CLOUD_LOCATION: 'us-central1',
      GOOGLE_VERTEX_BASE_URL: await this.vertex.start(),
      GCE_METADATA_HOST: this.fx.auth.metadataHost,
      METADATA_SERVER_DETECTION: 'assume-present',
    });
    return {};
  }
  override requestCount(): number {
    return this.vertex?.requests.length ?? 0;
  }
  override seen(index: number): SeenEntry[] {
    return fromContents(
      ((this.vertex?.requests[index]?.body as { contents?: Content[] }) ?? {}).contents ?? [],
    );
  }
  override async dispose(): Promise<void> {
    await this.vertex?.close();
    await this.fx?.dispose();
  }
}

class CodeAssistHarness implements ProviderHarness {
  private fixture: AuthFixture | undefined;
  constructor(
    readonly name: string,
    private readonly via: 'oauth' | 'metadata',
  ) {}

  async start(turns: GenerateContentResponse[][]): Promise<GeminiCliAgentOptions> {
    this.fixture = await createAuthFixture({
      auth: { refreshTokens: ['1//test-refresh-token-0123456789'] },
      codeAssist: { turns },
    });
    if (this.via === 'oauth') {
      this.fixture.writeCredentials(expiredCredentials());
      this.fixture.setEnv({ GOOGLE_GENAI_USE_GCA: 'true' });
    } else {
      this.fixture.setEnv({
        GEMINI_CLI_USE_COMPUTE_ADC: 'true',
        GCE_METADATA_HOST: this.fixture.auth.metadataHost,
      });
    }
    return {};
  }
  requestCount(): number {
    const ca = this.fixture?.codeAssist;
    return (
      (ca?.requestsOf('streamGenerateContent').length ?? 0) +
      (ca?.requestsOf('generateContent').length ?? 0)
    );
  }
  seen(index: number): SeenEntry[] {
    const body = this.fixture?.codeAssist.requestsOf('streamGenerateContent')[index]?.body as
      { request?: { contents?: Content[] } } | undefined;
    return fromContents(body?.request?.contents ?? []);
  }
  async dispose(): Promise<void> {
    await this.fixture?.dispose();
  }
}

class OpenAIHarness implements ProviderHarness {
  readonly name = 'OpenAI-compatible server (openAICompatible)';
  private server: FakeOpenAIServer | undefined;
  private fixture: AuthFixture | undefined;

  async start(turns: GenerateContentResponse[][]): Promise<GeminiCliAgentOptions> {
    this.fixture = await createAuthFixture();
    this.server = new FakeOpenAIServer({ apiKey: 'sk-local', turns });
    await this.server.start();
    return {
      provider: openAICompatible({
        baseURL: `${this.server.baseUrl}/v1`,
        apiKey: 'sk-local',
        model: 'local-model',
      }),
    };
  }
  requestCount(): number {
    return this.server?.chatBodies.length ?? 0;
  }
  seen(index: number): SeenEntry[] {
    return fromMessages((this.server?.chatBodies[index]?.['messages'] ?? []) as OpenAIMessage[]);
  }
  async dispose(): Promise<void> {
    await this.server?.close();
    await this.fixture?.dispose();
  }
}

/** Every provider the scenario suite runs against: a name and a factory of a fresh harness. */
export const PROVIDERS: ReadonlyArray<{ name: string; create: () => ProviderHarness }> = [
  { name: 'Gemini API (gemini-api-key)', create: () => new GeminiApiHarness() },
  { name: 'Vertex AI with ADC from the metadata server', create: () => new VertexAdcHarness() },
  {
    name: 'Code Assist, cached Login with Google credentials',
    create: () => new CodeAssistHarness('oauth-personal', 'oauth'),
  },
  {
    name: 'Code Assist, metadata-server ADC',
    create: () => new CodeAssistHarness('compute-default-credentials', 'metadata'),
  },
  { name: 'OpenAI-compatible server', create: () => new OpenAIHarness() },
];
