/**
 * Turning errors of google-auth-library (gaxios) into messages that are safe to show and log.
 *
 * A `GaxiosError` carries the whole request: its `config` holds the `Authorization` header, and for a token
 * refresh the form body with the refresh token and client secret. So an auth error is never wrapped as `cause`
 * and never logged whole: only the OAuth error code/description, the HTTP status and the plain message are
 * kept, with any known secret blanked out.
 */

/** The useful, secret-free parts of an auth failure. */
export interface AuthFailure {
  /** One-line description, e.g. `invalid_grant: Token has been expired or revoked. (HTTP 400)`. */
  message: string;
  /** HTTP status, when the failure came from an HTTP answer. */
  status: number | undefined;
}

const TOKEN_PATTERN = /\b(ya29\.[\w.-]+|1\/\/[\w.-]{10,}|GOCSPX-[\w-]+)/g;

/** Removes every value of `secrets` and anything shaped like a Google token from `text`. */
export function redactSecrets(
  text: string,
  secrets: ReadonlyArray<string | null | undefined> = [],
): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 8) out = out.split(secret).join('<redacted>');
  }
  return out.replace(TOKEN_PATTERN, '<redacted>');
}

/** Extracts a safe description of an auth error (see the module comment). */
export function describeAuthFailure(
  error: unknown,
  secrets: ReadonlyArray<string | null | undefined> = [],
): AuthFailure {
  const response = (error as { response?: { status?: unknown; data?: unknown } } | null)?.response;
  const status = typeof response?.status === 'number' ? response.status : statusOf(error);
  const data = response?.data;
  let message: string | undefined;
  if (typeof data === 'object' && data !== null) {
    const d = data as { error?: unknown; error_description?: unknown };
    const code =
      typeof d.error === 'string'
        ? d.error
        : typeof (d.error as { message?: unknown } | undefined)?.message === 'string'
          ? String((d.error as { message: string }).message)
          : undefined;
    const description = typeof d.error_description === 'string' ? d.error_description : undefined;
    if (code !== undefined) message = description ? `${code}: ${description}` : code;
  }
  if (message === undefined) {
    message = error instanceof Error ? error.message : String(error);
    const cause = (error as { cause?: unknown } | null)?.cause;
    const causeCode = (cause as { code?: unknown } | null)?.code;
    if (typeof causeCode === 'string' && !message.includes(causeCode)) message += ` (${causeCode})`;
  }
  const text = status === undefined ? message : `${message} (HTTP ${status})`;
  return { message: redactSecrets(text, secrets), status };
}

function statusOf(error: unknown): number | undefined {
  const s = (error as { status?: unknown } | null)?.status;
  return typeof s === 'number' ? s : undefined;
}
