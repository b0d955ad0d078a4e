import './styles/base.css';
import './styles/kit.css';

/** lib/marks.ts's mark, written out here: this file imports no module of the app's (tests/app/
 *  first-screen-preload.test.ts). A module it imported would sit in some chunk of the app's, which the
 *  entry would then import, and everything that chunk imports (React, the start, home) would run with it,
 *  in one long task before the first line here. */
const mark = (name: string): void => void performance.mark?.(`canopy:${name}`);

// The entry: the boot shell (index.html) paints first, then the app's code runs in steps, each its own
// task, so no single long task blocks input (Total Blocking Time; bench/lighthouse.ts):
// React, then the rest of the app (start.tsx: the router, the runtime), which renders the first screen in
// a transition. Every chunk is already loading (modulepreload in index.html, or the service worker's
// precache offline), so the steps wait for the CPU, not the network. The offline store (Dexie) is not one
// of them: start.tsx loads it for any screen but home, whose first screen draws without it (lib/store.ts).

/** The next task: what ran before it is one task, what follows another. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Once the boot shell is on screen (its first contentful paint), so the app's work never delays it; at
 *  once in a hidden page, which paints nothing, and after 500 ms at most. */
const afterFirstPaint = () =>
  new Promise<void>((resolve) => {
    if (document.visibilityState === 'hidden' || performance.getEntriesByName('first-contentful-paint').length > 0) return resolve();
    const timer = setTimeout(done, 500);
    const observer = typeof PerformanceObserver === 'function' ? new PerformanceObserver((list) => list.getEntriesByName('first-contentful-paint').length > 0 && done()) : null;
    observer?.observe({ type: 'paint' });
    document.addEventListener('visibilitychange', done);
    function done() {
      clearTimeout(timer);
      observer?.disconnect();
      document.removeEventListener('visibilitychange', done);
      resolve();
    }
  });

void (async () => {
  mark('main');
  await afterFirstPaint();
  mark('painted');
  await import('react-dom/client');
  mark('react');
  await nextTask();
  const { start } = await import('./start');
  mark('start');
  await start();
})();
