export type LogFields = Record<string, unknown>;

export interface Logger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/** One JSON object per line on stderr. */
export function createLogger(write: (line: string) => void = (line) => process.stderr.write(line)): Logger {
  const emit = (level: string, message: string, fields?: LogFields) =>
    write(`${JSON.stringify({ time: new Date().toISOString(), level, message, ...fields })}\n`);
  return {
    info: (message, fields) => emit('info', message, fields),
    warn: (message, fields) => emit('warn', message, fields),
    error: (message, fields) => emit('error', message, fields),
  };
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
