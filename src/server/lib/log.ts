export type LogLevel = 'silent' | 'error' | 'info' | 'debug';
const rank: Record<LogLevel, number> = { silent: 0, error: 1, info: 2, debug: 3 };

export interface Logger {
  error(msg: string, extra?: unknown): void;
  info(msg: string, extra?: unknown): void;
  debug(msg: string, extra?: unknown): void;
}

export function createLogger(level: LogLevel): Logger {
  const at = rank[level];
  const line = (lvl: string, msg: string, extra?: unknown) =>
    `${new Date().toISOString()} ${lvl} ${msg}${extra === undefined ? '' : ' ' + (extra instanceof Error ? extra.stack : JSON.stringify(extra))}`;
  return {
    error: (m, e) => at >= 1 && console.error(line('ERROR', m, e)),
    info: (m, e) => at >= 2 && console.log(line('INFO', m, e)),
    debug: (m, e) => at >= 3 && console.log(line('DEBUG', m, e)),
  };
}
