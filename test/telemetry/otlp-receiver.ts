import { createServer, type IncomingMessage, type Server } from 'node:http';

/** A minimal OTLP/HTTP receiver on loopback: keeps every request to /v1/traces. */
export class OtlpReceiver {
  readonly requests: Array<{ path: string; contentType: string; body: Buffer }> = [];
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.requests.push({
          path: req.url ?? '',
          contentType: String(req.headers['content-type']),
          body: Buffer.concat(chunks),
        });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    this.url = `http://127.0.0.1:${address.port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

export interface OtlpAttribute {
  key: string;
  value: {
    stringValue?: string;
    intValue?: number | string;
    boolValue?: boolean;
    arrayValue?: unknown;
  };
}
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: OtlpAttribute[];
  status?: { code?: number };
}

export function attrs(span: OtlpSpan): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const a of span.attributes) {
    const v = a.value;
    out[a.key] =
      v.stringValue ??
      (v.intValue === undefined ? undefined : Number(v.intValue)) ??
      v.boolValue ??
      v.arrayValue;
  }
  return out;
}

/** Every span of every request the receiver got, with each request's resource attributes. */
export function spansOf(
  receiver: OtlpReceiver,
): Array<{ span: OtlpSpan; resource: Record<string, unknown>; scope: string }> {
  const out: Array<{ span: OtlpSpan; resource: Record<string, unknown>; scope: string }> = [];
  for (const request of receiver.requests) {
    const body = JSON.parse(request.body.toString('utf8')) as {
      resourceSpans: Array<{
        resource: { attributes: OtlpAttribute[] };
        scopeSpans: Array<{ scope: { name: string }; spans: OtlpSpan[] }>;
      }>;
    };
    for (const rs of body.resourceSpans) {
      const resource = attrs({ attributes: rs.resource.attributes } as OtlpSpan);
      for (const ss of rs.scopeSpans) {
        for (const span of ss.spans) out.push({ span, resource, scope: ss.scope.name });
      }
    }
  }
  return out;
}
