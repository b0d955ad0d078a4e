// The reachability signal behind the offline bar (src/app/lib/online.ts): while the server cannot be
// reached, the app asks it again on a backing-off timer, at once when the device says it is online or the
// app comes to the foreground, and not at all while it is reachable.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' });
  Object.defineProperty(globalThis, 'window', { value: new EventTarget(), configurable: true });
  Object.defineProperty(globalThis, 'document', { value: doc, configurable: true });
  Object.defineProperty(globalThis, 'navigator', { value: { onLine: true }, configurable: true, writable: true });
});

import { isOnlineNow, noteReachable, PROBE_FIRST_MS, PROBE_MAX_MS, watchReachability } from '../../src/app/lib/online';

let serverUp = false;
let stop: () => void = () => undefined;
const probe = vi.fn(async () => noteReachable(serverUp));

beforeAll(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});

beforeEach(() => {
  serverUp = false;
  noteReachable(true);
  probe.mockClear();
  stop = watchReachability(probe);
});

afterEach(() => stop());

describe('watchReachability', () => {
  it('does nothing while the server is reachable', async () => {
    await vi.advanceTimersByTimeAsync(10 * PROBE_MAX_MS);
    expect(probe).not.toHaveBeenCalled();
  });

  it('asks again 1 s after the server became unreachable, then backs off (doubling, capped), and stops once it answers', async () => {
    noteReachable(false);
    expect(isOnlineNow()).toBe(false);
    await vi.advanceTimersByTimeAsync(PROBE_FIRST_MS - 1);
    expect(probe).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(probe).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(2 * PROBE_FIRST_MS);
    expect(probe).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(4 * PROBE_FIRST_MS);
    expect(probe).toHaveBeenCalledTimes(3);
    // 8 s, then the 15 s cap.
    await vi.advanceTimersByTimeAsync(8 * PROBE_FIRST_MS + PROBE_MAX_MS);
    expect(probe).toHaveBeenCalledTimes(5);
    await vi.advanceTimersByTimeAsync(PROBE_MAX_MS);
    expect(probe).toHaveBeenCalledTimes(6);

    serverUp = true;
    await vi.advanceTimersByTimeAsync(PROBE_MAX_MS);
    expect(probe).toHaveBeenCalledTimes(7);
    expect(isOnlineNow()).toBe(true);
    await vi.advanceTimersByTimeAsync(10 * PROBE_MAX_MS);
    expect(probe).toHaveBeenCalledTimes(7);
  });

  it('asks at once when the device comes online or the app comes to the foreground, and starts the back-off again', async () => {
    noteReachable(false);
    await vi.advanceTimersByTimeAsync(PROBE_FIRST_MS + 2 * PROBE_FIRST_MS + 4 * PROBE_FIRST_MS);
    expect(probe).toHaveBeenCalledTimes(3);
    window.dispatchEvent(new Event('online'));
    expect(probe).toHaveBeenCalledTimes(4);
    await vi.advanceTimersByTimeAsync(PROBE_FIRST_MS);
    expect(probe).toHaveBeenCalledTimes(5); // back to 1 s, not 8 s
    document.dispatchEvent(new Event('visibilitychange'));
    expect(probe).toHaveBeenCalledTimes(6);
    document.dispatchEvent(new Event('visibilitychange')); // one probe at a time
    expect(probe).toHaveBeenCalledTimes(6);
    await vi.advanceTimersByTimeAsync(0);
    serverUp = true;
    window.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(0);
    expect(isOnlineNow()).toBe(true);
    expect(probe).toHaveBeenCalledTimes(7);
  });

  it('once stopped, it does not probe', async () => {
    stop();
    noteReachable(false);
    await vi.advanceTimersByTimeAsync(10 * PROBE_MAX_MS);
    expect(probe).not.toHaveBeenCalled();
  });
});
