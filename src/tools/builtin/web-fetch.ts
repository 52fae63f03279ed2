import { z } from 'zod';
import type { AgentTool, ToolResult } from '../../core/agent-tool.js';
import { defineBuiltinTool, errorResult } from './builtin-tool.js';
import { fetchLimited, type FetchLimits } from './http-fetch.js';
import { htmlToText } from './html-to-text.js';
import { wrapUntrusted } from './shell-syntax.js';
import {
  convertGithubUrlToRaw,
  isBlockedHost,
  type HostLookup,
  normalizeUrl,
  parsePromptUrls,
} from './url-safety.js';

/** Options for `web_fetch`. */
export interface WebFetchOptions {
  /** Allow loopback and private-network hosts (default false, as gemini-cli). */
  allowPrivateHosts?: boolean;
  /** Host resolver (default: the system's). Each host is resolved once and connected to as resolved. */
  lookup?: HostLookup;
  /** Per-request timeout (default 10 000 ms). */
  timeoutMs?: number;
  /** Total characters of page text returned (default 250 000). */
  maxContentChars?: number;
  /** Largest response body read (default 10 MiB). */
  maxBytes?: number;
  /**
   * gemini-cli's direct mode: the tool takes one `url` and returns the raw content, instead of a `prompt`
   * holding up to 20 URLs (default false).
   */
  direct?: boolean;
}

const TRUNCATION_WARNING = '\n\n... [Content truncated due to size limit] ...';

function truncate(text: string, max: number, warning = TRUNCATION_WARNING): string {
  return text.length <= max ? text : text.slice(0, max) + warning;
}

function sanitizeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const PROMPT_DESCRIPTION =
  "Analyzes and extracts information from up to 20 URLs. Ideal for documentation review, technical research, or reading raw code from GitHub. You can provide specific, complex instructions for the extraction (e.g., 'Summarize the breaking changes'). Provides cited answers based on the content. GitHub 'blob' URLs are automatically converted to raw versions for better processing. Supports HTTP/HTTPS only.";

const WebFetchArgs = z.object({ prompt: z.string().optional(), url: z.string().optional() });
type WebFetchArgs = z.infer<typeof WebFetchArgs>;

/** gemini-cli's `web_fetch` (WebFetch, kind fetch): fetches the URLs in `prompt` and returns their text. */
export function createWebFetchTool(options: WebFetchOptions = {}): AgentTool {
  const maxChars = options.maxContentChars ?? 250_000;
  const limits = (signal: AbortSignal, headers?: Record<string, string>): FetchLimits => ({
    timeoutMs: options.timeoutMs ?? 10_000,
    maxBytes: options.maxBytes ?? 10 * 1024 * 1024,
    allowPrivateHosts: options.allowPrivateHosts ?? false,
    signal,
    ...(options.lookup ? { lookup: options.lookup } : {}),
    ...(headers ? { headers } : {}),
  });
  const blocked = async (url: string): Promise<boolean> =>
    !options.allowPrivateHosts && (await isBlockedHost(url, options.lookup));

  async function fetchText(url: string, signal: AbortSignal): Promise<string> {
    const response = await fetchLimited(convertGithubUrlToRaw(url), limits(signal));
    if (response.status < 200 || response.status >= 300) {
      throw new Error(`Request failed with status code ${response.status} ${response.statusText}`);
    }
    const raw = response.body.toString('utf8');
    const type = response.contentType.toLowerCase();
    return type.includes('text/html') || type === '' ? htmlToText(raw) : raw;
  }

  async function runPrompt(args: WebFetchArgs, signal: AbortSignal): Promise<ToolResult> {
    const { validUrls } = parsePromptUrls(args.prompt ?? '');
    const unique = [...new Set(validUrls.map(normalizeUrl))];
    const toFetch: string[] = [];
    const skipped: string[] = [];
    for (const url of unique) {
      if (await blocked(url)) skipped.push(`[Blocked Host] ${url}`);
      else toFetch.push(url);
    }
    if (toFetch.length === 0) {
      const text = `All requested URLs were skipped: ${skipped.join(', ')}`;
      return errorResult(`Error: ${text}`, 'web_fetch_processing_error');
    }
    const successes = new Map<string, string>();
    const failures = new Map<string, string>();
    for (const url of toFetch) {
      try {
        successes.set(url, await fetchText(url, signal));
      } catch (error) {
        failures.set(url, message(error));
      }
    }
    if (successes.size === 0) {
      const text = `All fallback fetch attempts failed: ${[...failures].map(([u, m]) => `${u}: ${m}`).join(', ')}`;
      return errorResult(`Error: ${text}`, 'web_fetch_fallback_failed');
    }
    // Share the character budget fairly: shortest pages first, each gets at most an equal share of what is left.
    let budget = maxChars;
    let remaining = successes.size;
    const finalText = new Map<string, string>();
    for (const [url, text] of [...successes].sort((a, b) => a[1].length - b[1].length)) {
      const share = Math.floor(budget / remaining);
      const cut = truncate(text, Math.min(text.length, share));
      finalText.set(url, cut);
      budget -= cut.length;
      remaining -= 1;
    }
    const sources = toFetch
      .map((url) => {
        const text = finalText.get(url);
        const body =
          text !== undefined
            ? sanitizeXml(text)
            : `Error: ${sanitizeXml(failures.get(url) ?? 'Unknown error')}`;
        return `<source url="${sanitizeXml(url)}">\n${body}\n</source>`;
      })
      .join('\n');
    const warning =
      skipped.length > 0
        ? `[Warning] The following URLs were skipped:\n${skipped.join('\n')}\n\n`
        : '';
    return {
      llmContent: wrapUntrusted(`${warning}${sources}`),
      returnDisplay: `Content for ${toFetch.length} URL(s) fetched.`,
    };
  }

  async function runDirect(args: WebFetchArgs, signal: AbortSignal): Promise<ToolResult> {
    const url = convertGithubUrlToRaw(new URL(args.url ?? '').href);
    if (await blocked(url)) {
      const text = `Access to blocked or private host ${url} is not allowed.`;
      return errorResult(`Error: ${text}`, 'web_fetch_processing_error');
    }
    try {
      const response = await fetchLimited(
        url,
        limits(signal, {
          Accept:
            'text/markdown, text/plain;q=0.9, application/json;q=0.9, text/html;q=0.8, application/pdf;q=0.7, video/*;q=0.7, */*;q=0.5',
        }),
      );
      const type = response.contentType.toLowerCase();
      if (response.status >= 400) {
        const raw = truncate(
          response.body.toString('utf8'),
          10_000,
          '\n\n... [Error response truncated] ...',
        );
        return {
          llmContent: `Request failed with status ${response.status}\nHeaders: ${JSON.stringify(response.headers, null, 2)}\nResponse: ${raw}`,
          returnDisplay: `Failed to fetch ${url} (Status: ${response.status})`,
        };
      }
      if (type.startsWith('image/') || type.startsWith('video/') || type === 'application/pdf') {
        return {
          llmContent: [
            {
              inlineData: {
                data: response.body.toString('base64'),
                mimeType: response.contentType.split(';')[0] ?? type,
              },
            },
          ],
          returnDisplay: `Fetched ${response.contentType} from ${url}`,
        };
      }
      if (type.includes('text/html')) {
        const text = htmlToText(response.body.toString('utf8'), { keepHrefs: true, baseUrl: url });
        return {
          llmContent: wrapUntrusted(truncate(text, maxChars)),
          returnDisplay: `Fetched and converted HTML content from ${url}`,
        };
      }
      return {
        llmContent: wrapUntrusted(truncate(response.body.toString('utf8'), maxChars)),
        returnDisplay: `Fetched ${response.contentType || 'unknown'} content from ${url}`,
      };
    } catch (error) {
      const text = `Error during experimental fetch for ${url}: ${message(error)}`;
      return errorResult(`Error: ${text}`, 'web_fetch_fallback_failed');
    }
  }

  return defineBuiltinTool({
    name: 'web_fetch',
    displayName: 'WebFetch',
    kind: 'fetch',
    description: options.direct
      ? 'Fetch content from a URL directly. Send multiple requests for this tool if multiple URL fetches are needed.'
      : PROMPT_DESCRIPTION,
    parametersJsonSchema: options.direct
      ? {
          type: 'object',
          properties: {
            url: {
              type: 'string',
              description: 'The URL to fetch. Must be a valid http or https URL.',
            },
          },
          required: ['url'],
        }
      : {
          type: 'object',
          properties: {
            prompt: {
              description:
                'A string containing the URL(s) and your specific analysis instructions. Be clear about what information you want to find or summarize. Supports up to 20 URLs.',
              type: 'string',
            },
          },
          required: ['prompt'],
        },
    schema: WebFetchArgs,
    check(args) {
      if (options.direct) {
        if (!args.url) return "The 'url' parameter is required.";
        try {
          const parsed = new URL(args.url);
          if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
            return `Invalid URL: "${args.url}"`;
        } catch {
          return `Invalid URL: "${args.url}"`;
        }
        return null;
      }
      if (!args.prompt || args.prompt.trim() === '') {
        return "The 'prompt' parameter cannot be empty and must contain URL(s) and instructions.";
      }
      const { validUrls, errors } = parsePromptUrls(args.prompt);
      if (errors.length > 0) return `Error(s) in prompt URLs:\n- ${errors.join('\n- ')}`;
      if (validUrls.length === 0) {
        return "The 'prompt' must contain at least one valid URL (starting with http:// or https://).";
      }
      if (validUrls.length > 20) return 'The prompt contains more than 20 URLs; split the request.';
      return null;
    },
    describe(args) {
      if (args.url) return `Fetching content from: ${args.url}`;
      const prompt = args.prompt ?? '';
      const shown = prompt.length > 100 ? `${prompt.substring(0, 97)}...` : prompt;
      return `Processing URLs and instructions from prompt: "${shown}"`;
    },
    run: (args, _ctx, call) =>
      options.direct ? runDirect(args, call.signal) : runPrompt(args, call.signal),
  });
}
