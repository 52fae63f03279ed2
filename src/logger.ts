/** A minimal structured logger. The SDK never prints; inject one to see what it does. */
export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

/** A logger that drops everything (the default). */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};

/** A logger writing one line per entry to stderr (used by the `debug` option). */
export function createStderrLogger(prefix = '[gemini-agent-sdk]'): Logger {
  const write = (level: string, message: string, data?: Record<string, unknown>) => {
    const suffix = data === undefined ? '' : ` ${JSON.stringify(data)}`;
    process.stderr.write(`${prefix} ${level}: ${message}${suffix}\n`);
  };
  return {
    debug: (m, d) => write('debug', m, d),
    info: (m, d) => write('info', m, d),
    warn: (m, d) => write('warn', m, d),
    error: (m, d) => write('error', m, d),
  };
}
