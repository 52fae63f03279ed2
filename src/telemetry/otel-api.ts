import { createRequire } from 'node:module';
import type * as Api from '@opentelemetry/api';

/** The `@opentelemetry/api` module. */
export type OtelApi = typeof Api;

let loading: Promise<OtelApi | undefined> | undefined;

/**
 * Whether `@opentelemetry/api` (an optional peer dependency) can be found from this package, without loading it.
 */
export function otelApiInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('@opentelemetry/api');
    return true;
  } catch {
    return false;
  }
}

/** Loads `@opentelemetry/api` once; undefined when it is not installed. */
export function loadOtelApi(): Promise<OtelApi | undefined> {
  loading ??= import('@opentelemetry/api').then(
    (api) => api,
    () => undefined,
  );
  return loading;
}
