/**
 * Structured logging: JSON lines on stderr when stderr is not a TTY (containers, Airflow),
 * short human lines when it is. Every line passes through `redact`, and is one line whatever
 * the message holds (`inert-text.ts`).
 */
import { jsonLine, terminalLine } from './inert-text.ts';
import { redact } from './redact.ts';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export interface LoggerOptions {
  level?: LogLevel;
  json?: boolean;
  write?: (line: string) => void;
  now?: () => Date;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const threshold =
    LEVELS[options.level ?? (process.env.AIVIS_LOG_LEVEL as LogLevel | undefined) ?? 'info'] ?? LEVELS.info;
  const json = options.json ?? !process.stderr.isTTY;
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const now = options.now ?? (() => new Date());
  const emit = (level: LogLevel, msg: string, fields: Record<string, unknown> = {}) => {
    if (LEVELS[level] < threshold) return;
    write(
      json
        ? redact(jsonLine({ ts: now().toISOString(), level, msg, ...fields }, jsonSafe))
        : terminalLine(redact(`${level === 'info' ? '' : `${level.toUpperCase()} `}${msg}${formatFields(fields)}`)),
    );
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}

/** A logger that drops everything (library use, tests that do not look at logs). */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

function jsonSafe(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Error) return { name: value.name, message: value.message };
  return value;
}

function formatFields(fields: Record<string, unknown>): string {
  const parts = Object.entries(fields).map(
    ([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v, jsonSafe)}`,
  );
  return parts.length ? ` ${parts.join(' ')}` : '';
}
