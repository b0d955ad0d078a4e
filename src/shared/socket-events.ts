// Server -> client socket messages, one map from type to payload (docs/product.md#live-updates).
export type InvalidationTable = 'projects' | 'news' | 'orders' | 'fundlogs' | 'user' | 'notifications' | 'retirements' | 'offsets' | 'members' | 'approvals' | 'certificates';

export interface ServerEvents {
  invalidate: { tables: InvalidationTable[]; ids?: number[] };
  /** A new notice, in both languages (the app shows the reader's); id 0 for a broadcast. */
  notification: { id: number; title: string; body: string; title_cn?: string; body_cn?: string; created_at: number };
  hello: { mem_id: number; time: number };
  /** Sessions that ended (logout, password change or reset, lock, freeze): the hub closes their sockets
   *  with SOCKET_CLOSE_SESSION_ENDED; `sessions` absent means every session of the user. Never sent to
   *  a client. */
  session_end: { sessions?: number[] };
}

export type ServerMessage = { [K in keyof ServerEvents]: { type: K } & ServerEvents[K] }[keyof ServerEvents];

export const PING = 'ping';
export const PONG = 'pong';

/** Close code of a socket whose session ended: the client signs out and goes to login. */
export const SOCKET_CLOSE_SESSION_ENDED = 4001;
/** Close code when a socket is refused for a cap (per token or per address). */
export const SOCKET_CLOSE_TOO_MANY = 4008;
