import type { LogLevel } from "./config.ts";

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };
/** Field names whose values never reach a log line. */
const SECRET_KEYS = /pass(word)?|secret|token|cookie|authorization|hash/i;

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

function redact(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (SECRET_KEYS.test(k)) out[k] = "[redacted]";
    else if (v instanceof Error) out[k] = { name: v.name, message: v.message, stack: v.stack };
    else out[k] = v;
  }
  return out;
}

/** Where log lines go: stdout, or stderr where stdout carries a protocol (the CLI's MCP stdio server). */
export interface LogSink { write(line: string): unknown }

/** JSON-lines logger on stdout (or `sink`); secrets are redacted by field name. */
export function createLogger(level: LogLevel, base: Record<string, unknown> = {}, sink: LogSink = process.stdout): Logger {
  const min = RANK[level];
  const write = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (RANK[lvl] < min) return;
    const line = { time: new Date().toISOString(), level: lvl, msg, ...base, ...(fields ? redact(fields) : {}) };
    sink.write(JSON.stringify(line) + "\n");
  };
  return {
    debug: (m, f) => write("debug", m, f),
    info: (m, f) => write("info", m, f),
    warn: (m, f) => write("warn", m, f),
    error: (m, f) => write("error", m, f),
    child: (fields) => createLogger(level, { ...base, ...fields }, sink),
  };
}
