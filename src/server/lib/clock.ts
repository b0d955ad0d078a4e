// The server's clock is the only clock for deadlines (docs/product.md#units-time-and-money). Tests pass a
// clock they control.
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export class ManualClock implements Clock {
  constructor(private ms: number) {}
  now(): number {
    return this.ms;
  }
  set(ms: number): void {
    this.ms = ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

const SGT_OFFSET_MS = 8 * 3600_000;

/** ISO 8601 in Singapore time with its offset, e.g. 2026-11-21T09:30:00.000+08:00. */
export function isoSgt(ms: number): string {
  return new Date(ms + SGT_OFFSET_MS).toISOString().replace('Z', '+08:00');
}

/** The SGT calendar date (YYYY-MM-DD) and weekday (0 = Sunday) of an instant. */
export function sgtDay(ms: number): { date: string; weekday: number } {
  const d = new Date(ms + SGT_OFFSET_MS);
  return { date: d.toISOString().slice(0, 10), weekday: d.getUTCDay() };
}

/** Epoch ms of the SGT midnight that starts the day of `ms`. */
export function sgtMidnight(ms: number): number {
  const d = new Date(ms + SGT_OFFSET_MS);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - SGT_OFFSET_MS;
}
