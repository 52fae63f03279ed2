import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';

const PROTO_DIR = fileURLToPath(new URL('./otlp-proto/', import.meta.url));

/** An OTLP attribute as proto-loader decodes it (`oneofs: true` names the set field in `value`). */
export interface DecodedKeyValue {
  key: string;
  value: {
    value?: string;
    stringValue?: string;
    boolValue?: boolean;
    intValue?: string;
    doubleValue?: number;
    arrayValue?: { values: DecodedKeyValue['value'][] };
  };
}

/** A decoded span (`bytes` as hex strings, `longs` as strings, `enums` as names). */
export interface DecodedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: DecodedKeyValue[];
  events: Array<{ name: string; attributes: DecodedKeyValue[] }>;
  status: { code: string; message: string } | null;
}

interface ResourceScoped<K extends string, T> {
  resource: { attributes: DecodedKeyValue[] } | null;
  scopes: Array<{ scope: { name: string; version: string } | null } & Record<K, T[]>>;
}

/** A decoded metric (the subset the tests read). */
export interface DecodedMetric {
  name: string;
  description: string;
  unit: string;
  data: 'sum' | 'gauge' | 'histogram';
  sum?: {
    dataPoints: Array<{
      attributes: DecodedKeyValue[];
      asInt?: string;
      asDouble?: number;
      value: string;
    }>;
    isMonotonic: boolean;
  };
  histogram?: {
    dataPoints: Array<{ attributes: DecodedKeyValue[]; count: string; sum?: number }>;
  };
}

/** A decoded log record. */
export interface DecodedLogRecord {
  timeUnixNano: string;
  severityNumber: number;
  severityText: string;
  body: DecodedKeyValue['value'] | null;
  attributes: DecodedKeyValue[];
  eventName: string;
  traceId: string;
  spanId: string;
}

/** A `bytes` field (decoded as base64) as lower-case hex. */
export function hex(base64: string): string {
  return Buffer.from(base64, 'base64').toString('hex');
}

/** The value of one decoded attribute, as a plain JS value. */
export function plain(value: DecodedKeyValue['value'] | null | undefined): unknown {
  if (value === null || value === undefined) return undefined;
  switch (value.value) {
    case 'stringValue':
      return value.stringValue;
    case 'boolValue':
      return value.boolValue;
    case 'intValue':
      return Number(value.intValue);
    case 'doubleValue':
      return value.doubleValue;
    case 'arrayValue':
      return (value.arrayValue?.values ?? []).map(plain);
    default:
      return undefined;
  }
}

/** Attributes as an object. */
export function attributesOf(list: readonly DecodedKeyValue[]): Record<string, unknown> {
  return Object.fromEntries(list.map((kv) => [kv.key, plain(kv.value)]));
}

type Handler = grpc.handleUnaryCall<Record<string, unknown>, Record<string, never>>;

/**
 * An OTLP/gRPC collector on 127.0.0.1 for tests: a real gRPC server (`@grpc/grpc-js`) serving OpenTelemetry's
 * `TraceService`, `MetricsService` and `LogsService` `Export` methods, the requests decoded from protobuf against
 * the OTLP schema (`otlp-proto/`, loaded with `@grpc/proto-loader`), kept with their metadata.
 */
export class OtlpGrpcReceiver {
  readonly traces: Array<ResourceScoped<'spans', DecodedSpan>> = [];
  readonly metrics: Array<ResourceScoped<'metrics', DecodedMetric>> = [];
  readonly logs: Array<ResourceScoped<'logRecords', DecodedLogRecord>> = [];
  /** The gRPC metadata (headers) of every request, in order. */
  readonly metadata: grpc.Metadata[] = [];
  private server: grpc.Server | undefined;
  /** `http://127.0.0.1:<port>` once started. */
  url = '';

  async start(): Promise<void> {
    const definition = protoLoader.loadSync(
      ['trace-service.proto', 'metrics-service.proto', 'logs-service.proto'],
      {
        includeDirs: [PROTO_DIR],
        longs: String,
        enums: String,
        bytes: String,
        defaults: true,
        oneofs: true,
      },
    );
    // The loaded package is untyped: reach the three services by their OTLP names.
    const root = grpc.loadPackageDefinition(definition) as unknown as {
      opentelemetry: {
        proto: {
          collector: Record<
            'trace' | 'metrics' | 'logs',
            { v1: Record<string, { service: grpc.ServiceDefinition }> }
          >;
        };
      };
    };
    const collector = root.opentelemetry.proto.collector;
    const server = new grpc.Server();
    const keep =
      <K extends string, T>(
        into: Array<ResourceScoped<K, T>>,
        resourceField: string,
        scopeField: string,
      ): Handler =>
      (call, callback) => {
        this.metadata.push(call.metadata);
        const list = (call.request[resourceField] ?? []) as Array<Record<string, unknown>>;
        for (const entry of list) {
          into.push({
            resource: entry['resource'] as ResourceScoped<K, T>['resource'],
            scopes: entry[scopeField] as ResourceScoped<K, T>['scopes'],
          });
        }
        callback(null, {});
      };
    server.addService(collector.trace.v1['TraceService']?.service as grpc.ServiceDefinition, {
      Export: keep(this.traces, 'resourceSpans', 'scopeSpans'),
    });
    server.addService(collector.metrics.v1['MetricsService']?.service as grpc.ServiceDefinition, {
      Export: keep(this.metrics, 'resourceMetrics', 'scopeMetrics'),
    });
    server.addService(collector.logs.v1['LogsService']?.service as grpc.ServiceDefinition, {
      Export: keep(this.logs, 'resourceLogs', 'scopeLogs'),
    });
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      ),
    );
    this.server = server;
    this.url = `http://127.0.0.1:${port}`;
  }

  /** Every span received (ids as hex, as OpenTelemetry shows them), with its resource attributes and scope name. */
  spans(): Array<{ span: DecodedSpan; resource: Record<string, unknown>; scope: string }> {
    return this.traces.flatMap((rs) =>
      rs.scopes.flatMap((ss) =>
        ss.spans.map((span) => ({
          span: {
            ...span,
            traceId: hex(span.traceId),
            spanId: hex(span.spanId),
            parentSpanId: hex(span.parentSpanId),
          },
          resource: attributesOf(rs.resource?.attributes ?? []),
          scope: ss.scope?.name ?? '',
        })),
      ),
    );
  }

  /** Every metric received (each export repeats cumulative metrics: the last one has the totals). */
  metricList(): Array<{ metric: DecodedMetric; resource: Record<string, unknown>; scope: string }> {
    return this.metrics.flatMap((rm) =>
      rm.scopes.flatMap((sm) =>
        sm.metrics.map((metric) => ({
          metric,
          resource: attributesOf(rm.resource?.attributes ?? []),
          scope: sm.scope?.name ?? '',
        })),
      ),
    );
  }

  /** Every log record received. */
  logRecords(): Array<{
    record: DecodedLogRecord;
    resource: Record<string, unknown>;
    scope: string;
  }> {
    return this.logs.flatMap((rl) =>
      rl.scopes.flatMap((sl) =>
        sl.logRecords.map((record) => ({
          record,
          resource: attributesOf(rl.resource?.attributes ?? []),
          scope: sl.scope?.name ?? '',
        })),
      ),
    );
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  }
}
