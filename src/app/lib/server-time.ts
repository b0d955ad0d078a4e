// The server's clock is the only clock for deadlines. Every answer carries `time` (server epoch ms);
// countdowns use the offset between it and this device's clock.
let offsetMs = 0;

export function noteServerTime(serverMs: unknown): void {
  if (typeof serverMs === 'number' && Number.isFinite(serverMs) && serverMs > 0) offsetMs = serverMs - Date.now();
}

export function serverNow(): number {
  return Date.now() + offsetMs;
}
