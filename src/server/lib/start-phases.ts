import { performance } from 'node:perf_hooks';

// The start path in phases, each one's end taken as ms since the process started (performance.now()) and as
// the process's CPU time by then, so a slow start says where its time went and whether it was working or
// waiting (for the database, for a CPU other processes hold): main.ts prints them in one line, which
// bench/restart.ts reads (docs/operations.md#restarts).

/** In order: Node's own bootstrap, the server's modules imported (main.ts runs), the configuration read, the
 *  database's first answer (a PostgreSQL pool's first connection), the migration check, the shared keys read,
 *  the services composed (limits, mail, cache; the demo seed when on), the app's routes built, the port
 *  listening. */
export type StartPhase = 'node' | 'modules' | 'config' | 'database' | 'migrations' | 'keys' | 'services' | 'app' | 'listening';

export interface PhaseTime {
  phase: StartPhase;
  /** Wall-clock ms the phase took. */
  ms: number;
  /** CPU ms (user and system) the process spent in it; Node's bootstrap has none of its own, the module
   *  imports' count it in. */
  cpuMs: number | null;
}

export interface StartPhases {
  /** The phase ends now. */
  mark(phase: StartPhase): void;
  /** Each marked phase's time (from the mark before it), in order. */
  times(): PhaseTime[];
  /** `Started in 812 ms (CPU 640 ms): node 41, modules 420/390, config 2/2, …`: each phase's wall and CPU ms. */
  line(): string;
}

const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** Phases counted from the process's start. Node's bootstrap is marked at once, the module imports with it:
 *  call this first thing in the entry module's body, whose imports are evaluated before it runs. */
export function startPhases(): StartPhases {
  const marks: Array<{ phase: StartPhase; at: number; cpu: number | null }> = [{ phase: 'node', at: performance.nodeTiming.bootstrapComplete, cpu: null }];
  const self: StartPhases = {
    mark(phase) {
      marks.push({ phase, at: performance.now(), cpu: cpuNow() });
    },
    times() {
      return marks.map(({ phase, at, cpu }, i) => ({ phase, ms: Math.round(at - (marks[i - 1]?.at ?? 0)), cpuMs: cpu === null ? null : Math.round(cpu - (marks[i - 1]?.cpu ?? 0)) }));
    },
    line() {
      const last = marks.at(-1)!;
      const phases = self.times().map((t) => `${t.phase} ${t.ms}${t.cpuMs === null ? '' : `/${t.cpuMs}`}`);
      return `Started in ${Math.round(last.at)} ms (CPU ${Math.round(last.cpu ?? 0)} ms): ${phases.join(', ')}`;
    },
  };
  self.mark('modules');
  return self;
}
