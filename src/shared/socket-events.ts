// Server -> client socket messages, one map from type to payload (DECISIONS "Live socket").
export type InvalidationTable = 'projects' | 'news' | 'orders' | 'fundlogs' | 'user';

export interface ServerEvents {
  invalidate: { tables: InvalidationTable[]; ids?: number[] };
  notification: { id: number; title: string; body: string; created_at: number };
  hello: { mem_id: number; time: number };
}

export type ServerMessage = { [K in keyof ServerEvents]: { type: K } & ServerEvents[K] }[keyof ServerEvents];

export const PING = 'ping';
export const PONG = 'pong';
