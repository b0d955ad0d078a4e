import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import type { Tx } from './tx';

// Kysely builds an immutable tree of operation nodes for every query and compiles it to SQL text on every
// call. On the order path that costs more of the server's main thread than the HTTP layer (CPU profile of
// bench/orders.ts at 64 connections, SQLite). A prepared query is built and compiled once per database
// adapter with marker values where its parameters go, and then run with the values put in by position:
// the same SQL text and the same parameters as building it anew, without the tree.

const MARK = Symbol('prepared parameter');

interface Marker {
  readonly [MARK]: string;
}

function marker(name: string): Marker {
  const fail = () => {
    // A marker turned into text or a number (a template string, arithmetic, lit()) would be compiled into
    // the SQL instead of being a parameter: the query's shape would depend on a value.
    throw new Error(`prepared query: parameter "${name}" was used as a value in JavaScript, not passed to the query`);
  };
  return { [MARK]: name, toString: fail, valueOf: fail, toJSON: fail } as Marker;
}

function isMarker(v: unknown): v is Marker {
  return typeof v === 'object' && v !== null && MARK in v;
}

interface Compiled {
  sql: string;
  query: CompiledQuery['query'];
  /** Per parameter of the SQL text: the name of the value it takes, or a constant of the query's own. */
  slots: ({ name: string } | { value: unknown })[];
}

export interface Prepared<P, R> {
  /** The compiled query with `values` in place (for callers that send it without waiting: db/tx.ts WriteScope.ahead). */
  compile(db: Tx, values: P): Compilable<R>;
  execute(db: Tx, values: P): Promise<QueryResult<R>>;
}

/** A query whose shape is fixed and whose values change: `build` is called once per database adapter with
 *  stand-ins for `values` (`p.name` where a value goes) and must pass each of them to the query builder
 *  untouched. Its shape must not depend on the values: no optional columns or clauses chosen by a value,
 *  no lists of varying length, no value put into the text (lit(), sql.raw, a template string); a stand-in
 *  used as text or as a number throws at the first build. */
export function prepared<P extends Record<string, unknown>, R>(build: (db: Tx, p: P) => Compilable<R>): Prepared<P, R> {
  const byAdapter = new WeakMap<object, Compiled>();
  const stand = new Proxy({} as P, { get: (_, key) => marker(String(key)) });

  const compiledFor = (db: Tx): Compiled => {
    const adapter = db.getExecutor().adapter;
    let c = byAdapter.get(adapter);
    if (!c) {
      const q = build(db, stand).compile();
      c = { sql: q.sql, query: q.query, slots: q.parameters.map((v) => (isMarker(v) ? { name: v[MARK] } : { value: v })) };
      byAdapter.set(adapter, c);
    }
    return c;
  };

  const compile = (db: Tx, values: P): CompiledQuery<R> => {
    const c = compiledFor(db);
    const parameters = c.slots.map((s) => {
      if (!('name' in s)) return s.value;
      const v = values[s.name];
      if (v === undefined) throw new Error(`prepared query: no value for "${s.name}"`);
      return v;
    });
    // queryId only matters to plugins, which these databases do not use.
    return { sql: c.sql, query: c.query, parameters, queryId: { queryId: '' } } as CompiledQuery<R>;
  };

  return {
    compile: (db, values) => {
      const q = compile(db, values);
      return { compile: () => q };
    },
    execute: (db, values) => db.executeQuery(compile(db, values)),
  };
}

/** Prepared queries of one family whose shape is given by a key (the columns an insert names, how many rows
 *  it writes): one per key, built at its first use. At most `maxShapes` are kept; a rarer shape beyond them is
 *  built for its call alone. */
export function preparedPerShape<K, P extends Record<string, unknown>, R>(
  build: (shape: K) => (db: Tx, p: P) => Compilable<R>,
  maxShapes: number,
): (shape: K) => Prepared<P, R> {
  const shapes = new Map<K, Prepared<P, R>>();
  return (shape) => {
    let q = shapes.get(shape);
    if (!q) {
      q = prepared(build(shape));
      if (shapes.size < maxShapes) shapes.set(shape, q);
    }
    return q;
  };
}
