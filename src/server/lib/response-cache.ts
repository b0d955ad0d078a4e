import { createHash } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Context } from 'hono';
import { ENVELOPE_DEFAULT_WAIT } from '../../shared/constants';
import type { ServerMessage } from '../../shared/socket-events';
import type { ListMemo } from '../db/paging';
import type { Clock } from './clock';
import { routeOf } from './metrics';

// Public GETs (project and news lists and details, content) answered from memory: the envelope encoded
// once, compressed once per encoding asked for (brotli, gzip), with a weak ETag so a client that has it
// gets 304. docs/decisions/0015-scale.md "The list path" has the reasoning; in short:
// - Invalidation: the socket's own events. The live event feed (live/feed.ts) hands every committed event
//   to onLiveMessage() before the sockets get it: `invalidate` of projects or news drops the lists (and
//   their counts and cursors) and the details named by `ids` (every detail when there are none). The feed
//   learns of commits from this process, other instances and the operator CLI (NOTIFY on PostgreSQL; on
//   SQLite an in-process signal and the WAL file's changes; a fallback poll on both), and only after they
//   commit, so an answer made from older rows is dropped after it.
// - The clock: an answer that changes with time alone (join_block at selling_time/end_time, news that is
//   scheduled) says until when it holds (`until`, server clock); an answer made before a clock moved back
//   (tests only) is not used either. These answers carry no envelope `time`: a 304 hands the client its
//   stored body, and a stored server time would be wrong by its age (the client takes its clock offset
//   from baseconfig, the socket's hello and every other answer).
// - A safety net: nothing lives longer than MAX_AGE_MS, in case an event is lost (or content changes,
//   which has no event today).
// - Bounded: MAX_ENTRIES answers and MAX_BYTES of bodies, least recently used out first; a key longer
//   than MAX_KEY_LENGTH is answered without the cache.
// - Keyed on what the answer is made from: the path and the route's parsed query (its schema's output:
//   unknown parameters dropped, defaults filled, values normalized), never the raw query string, so junk
//   parameters, the transport ones (t, v, lang) and other spellings of the same values share one answer
//   and cannot push the real answers out (docs/decisions/0015-scale.md "The list path").

const MAX_ENTRIES = 2000;
const MAX_BYTES = 64 * 1024 * 1024;
const MAX_AGE_MS = 60_000;
const MAX_KEY_LENGTH = 1024;
/** Smaller bodies are sent as they are (as hono/compress does). */
const COMPRESS_MIN_BYTES = 1024;
/** Values kept per tag (counts per filter, cursors per page) before they are all dropped. */
const MAX_DERIVED = 10_000;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
// Quality 5: most of brotli's gain at a fraction of quality 11's time; an answer is compressed again
// after every change of its rows.
const BROTLI_OPTIONS = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } };

type Encoding = 'br' | 'gzip';
/** Bytes as Hono's c.body takes them (a Buffer over a plain ArrayBuffer). */
type Bytes = Uint8Array<ArrayBuffer>;

/** What a producer gives: the envelope's data, and until when (server clock) it holds without an event. */
export interface PublicAnswer {
  data: unknown;
  until?: number;
}

interface Entry {
  key: string;
  tags: string[];
  etag: string;
  identity: Bytes;
  encoded: Partial<Record<Encoding, Bytes | Promise<Bytes>>>;
  bytes: number;
  /** Server clock when it was made, and until when it holds. */
  from: number;
  until: number;
  /** performance.now() after which it is made again anyway. */
  deadline: number;
}

interface Pending {
  promise: Promise<Entry>;
  tags: string[];
  epochs: number[];
}

export interface ResponseCache {
  /** Answers a public GET from memory, or makes the answer with `produce` (once for concurrent callers)
   *  and keeps it under `tags`, keyed on the path and `query`: the parameters the route read, as parsed
   *  by its schema (nothing else may change the answer). A producer's error (a refusal) is thrown, never kept. */
  serve(c: Context, tags: string[], query: Readonly<Record<string, unknown>>, produce: () => Promise<PublicAnswer>): Promise<Response>;
  /** Sends a kept answer straight from the HTTP server's request handler, before Hono and its middleware,
   *  on the paths the cache was made with (`fastPaths`: routes with no middleware of their own, no limit
   *  per address) when the same request (its path and raw query, the transport parameters aside, and the encoding it
   *  takes) was answered from this answer through them before: the same bytes and headers again. False when
   *  it cannot (then the request goes the usual way). `onServed` gets the route that answered it before. */
  fastServe(req: IncomingMessage, res: ServerResponse, onServed?: (route: string, t0: number) => void): boolean;
  /** Values derived from the rows of `tag` (counts per filter, cursors per page), dropped with them. */
  memoFor(tag: string): ListMemo;
  /** A committed live event (live/feed.ts): drops what it changed. */
  onLiveMessage(message: ServerMessage): void;
  /** Drops every kept answer but keeps the derived values (tests: the next answer is made again from them). */
  dropAnswers(): void;
  clear(): void;
  stats(): { entries: number; bytes: number; hits: number; misses: number };
}

/** The weak ETag of a body: the same rows give the same tag on every instance. */
function etagOf(body: Bytes): string {
  return `W/"${createHash('sha1').update(body).digest('base64url')}"`;
}

/** Whether If-None-Match names `etag` (weak comparison, as RFC 9110 has it for If-None-Match). */
function matches(ifNoneMatch: string, etag: string): boolean {
  const ours = etag.slice(2);
  for (const raw of ifNoneMatch.split(',')) {
    const tag = raw.trim();
    if (tag === '*' || (tag.startsWith('W/') ? tag.slice(2) : tag) === ours) return true;
  }
  return false;
}

/** brotli or gzip by the client's Accept-Encoding q-values (brotli when equal), or none. */
export function pickEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  let br: number | null = null;
  let gz: number | null = null;
  let any: number | null = null;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p);
      if (m) q = Number(m[1]);
    }
    if (!Number.isFinite(q)) q = 0;
    if (name === 'br') br = q;
    else if (name === 'gzip' || name === 'x-gzip') gz = q;
    else if (name === '*') any = q;
  }
  const qBr = br ?? any ?? 0;
  const qGz = gz ?? any ?? 0;
  if (qBr > 0 && qBr >= qGz) return 'br';
  if (qGz > 0) return 'gzip';
  return null;
}

/** The cache key: the path and the parsed parameters in a fixed order, each value as JSON (so 1 and "1"
 *  differ only where the schema left them different). */
export function cacheKey(path: string, query: Readonly<Record<string, unknown>>): string {
  const names = Object.keys(query)
    .filter((n) => query[n] !== undefined)
    .sort();
  if (names.length === 0) return path;
  return `${path}?${names.map((n) => `${encodeURIComponent(n)}=${encodeURIComponent(JSON.stringify(query[n]))}`).join('&')}`;
}

/** The kept answers: by key in order of last use (least recently used first out) and by tag, within
 *  `maxEntries` answers and `maxBytes` of bodies. */
class AnswerStore {
  private readonly entries = new Map<string, Entry>();
  private readonly byTag = new Map<string, Set<string>>();
  private bytes = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
  ) {}

  get(key: string): Entry | undefined {
    return this.entries.get(key);
  }

  holds(entry: Entry): boolean {
    return this.entries.get(entry.key) === entry;
  }

  /** Marks `entry` as the most recently used. */
  use(entry: Entry): void {
    this.entries.delete(entry.key);
    this.entries.set(entry.key, entry);
  }

  put(entry: Entry): void {
    const old = this.entries.get(entry.key);
    if (old) this.drop(old);
    this.entries.set(entry.key, entry);
    this.bytes += entry.bytes;
    for (const tag of entry.tags) {
      let keys = this.byTag.get(tag);
      if (!keys) this.byTag.set(tag, (keys = new Set()));
      keys.add(entry.key);
    }
    this.trim();
  }

  /** A kept entry's body grew by `n` bytes (an encoding made for it). */
  grow(entry: Entry, n: number): void {
    entry.bytes += n;
    this.bytes += n;
    this.trim();
  }

  drop(entry: Entry): void {
    if (this.entries.get(entry.key) !== entry) return;
    this.entries.delete(entry.key);
    this.bytes -= entry.bytes;
    for (const tag of entry.tags) this.byTag.get(tag)?.delete(entry.key);
  }

  dropTag(tag: string): void {
    const keys = this.byTag.get(tag);
    if (!keys) return;
    for (const key of [...keys]) {
      const entry = this.entries.get(key);
      if (entry) this.drop(entry);
    }
    this.byTag.delete(tag);
  }

  dropAll(): void {
    for (const entry of [...this.entries.values()]) this.drop(entry);
  }

  tags(): IterableIterator<string> {
    return this.byTag.keys();
  }

  reset(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  stats(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /** Least recently used out until within both bounds. */
  private trim(): void {
    for (const oldest of this.entries.values()) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.drop(oldest);
    }
  }
}

type Store = AnswerStore;

/** Per tag: an epoch that moves on with every change of its rows (an answer or a value made under an older
 *  one is not kept), and the values derived from its rows (counts per filter, cursors per page). */
function createTags() {
  const epochs = new Map<string, number>();
  const derived = new Map<string, Map<string, unknown>>();
  const epochOf = (tag: string) => epochs.get(tag) ?? 0;

  function memoFor(tag: string): ListMemo {
    const values = () => {
      let map = derived.get(tag);
      if (!map) derived.set(tag, (map = new Map()));
      if (map.size >= MAX_DERIVED) map.clear();
      return map;
    };
    return {
      epoch: () => epochOf(tag),
      get: <T>(key: string) => derived.get(tag)?.get(key) as T | undefined,
      set(key, value, since) {
        if (epochOf(tag) === since) values().set(key, value);
      },
      memo<T>(key: string, compute: () => Promise<T>): Promise<T> {
        const have = derived.get(tag)?.get(key) as Promise<T> | undefined;
        if (have) return have;
        const map = values();
        const promise = compute();
        map.set(key, promise);
        promise.catch(() => {
          if (map.get(key) === promise) map.delete(key);
        });
        return promise;
      },
    };
  }

  return {
    epochOf,
    /** The rows of `tag` changed: a new epoch, and its derived values dropped. */
    change(tag: string) {
      epochs.set(tag, epochOf(tag) + 1);
      derived.delete(tag);
    },
    memoFor,
    derivedTags: () => derived.keys(),
  };
}

type Tags = ReturnType<typeof createTags>;

/** The tags an event's change touches: the lists, and the details it names (every detail when it names none). */
function tagsChangedBy(message: ServerMessage): string[] {
  if (message.type !== 'invalidate') return [];
  const out: string[] = [];
  // The transparency figures (docs/product.md#retirement) move with projects' supply, bookings and
  // retirements.
  if (message.tables.some((t) => t === 'projects' || t === 'orders' || t === 'retirements')) out.push('transparency');
  // A certificate changes once, when its registry cancellation is recorded.
  if (message.tables.includes('certificates')) out.push('certificates');
  for (const table of message.tables) {
    if (table !== 'projects' && table !== 'news') continue;
    const one = table === 'projects' ? 'project' : 'news';
    out.push(table);
    if (message.ids && message.ids.length > 0) for (const id of message.ids) out.push(`${one}:${id}`);
    else out.push(`${one}:*`);
  }
  return out;
}

/** Makes an answer's entry: the envelope encoded once, its ETag, and how long it holds. */
async function build(key: string, tags: string[], produce: () => Promise<PublicAnswer>, clock: Clock, maxAgeMs: number): Promise<Entry> {
  const from = clock.now();
  const answer = await produce();
  // The fields in ok()'s order, without `time` (see the top of this file).
  const identity = Buffer.from(JSON.stringify({ code: 0, msg: 'ok', data: answer.data, wait: ENVELOPE_DEFAULT_WAIT }));
  return {
    key,
    tags,
    etag: etagOf(identity),
    identity,
    encoded: {},
    bytes: identity.length + key.length,
    from,
    until: answer.until ?? Infinity,
    deadline: performance.now() + maxAgeMs,
  };
}

/** Makes and keeps answers: concurrent misses of one key share one production, unless a tag it is made from
 *  changed since it started; an answer is kept only if none of its tags changed while it was made. */
function createMaker(store: Store, tags: Tags, make: (key: string, tagList: string[], produce: () => Promise<PublicAnswer>) => Promise<Entry>) {
  const pending = new Map<string, Pending>();
  const unchanged = (tagList: string[], epochs: number[]) => tagList.every((t, i) => tags.epochOf(t) === epochs[i]);
  return (key: string, tagList: string[], produce: () => Promise<PublicAnswer>): Promise<Entry> => {
    const joined = pending.get(key);
    if (joined && unchanged(joined.tags, joined.epochs)) return joined.promise;
    const started = tagList.map(tags.epochOf);
    const promise = make(key, tagList, produce).then((entry) => {
      // The callers get it either way.
      if (unchanged(tagList, started)) store.put(entry);
      return entry;
    });
    const record: Pending = { promise, tags: tagList, epochs: started };
    pending.set(key, record);
    const forget = () => {
      if (pending.get(key) === record) pending.delete(key);
    };
    promise.then(forget, forget);
    return promise;
  };
}

/** The entry's body in `encoding`, compressed once (concurrent askers share the work) and counted while kept. */
function encodedBody(store: Store, entry: Entry, encoding: Encoding): Promise<Bytes> {
  const have = entry.encoded[encoding];
  if (have) return Promise.resolve(have);
  const promise = (encoding === 'br' ? brotli(entry.identity, BROTLI_OPTIONS) : gzip(entry.identity)).then((out) => {
    const buf = out as Bytes;
    entry.encoded[encoding] = buf;
    if (store.holds(entry)) store.grow(entry, buf.length);
    return buf;
  });
  entry.encoded[encoding] = promise;
  return promise;
}

/** The query parameters of transport (lib/http.ts TRANSPORT_KEYS): no answer depends on them. */
const TRANSPORT = new Set(['lang', 't', 'v']);
/** Learned requests kept for the fast path, at most (then forgotten all at once: a flood of junk queries
 *  costs the fast path, never memory). */
const MAX_LEARNED = 4 * MAX_ENTRIES;

/** A request's path and raw query without the transport parameters: the same string always parses to the
 *  same query, so it names the same answer. */
export function rawKey(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const kept = url
    .slice(q + 1)
    .split('&')
    .filter((p) => {
      const eq = p.indexOf('=');
      return p !== '' && !TRANSPORT.has(eq < 0 ? p : p.slice(0, eq));
    });
  return kept.length ? `${url.slice(0, q)}?${kept.join('&')}` : url.slice(0, q);
}

/** An answer sent through Hono, to be sent again as it was (fastServe). */
interface Learned {
  entry: Entry;
  headers: OutgoingHttpHeaders;
  body: Bytes;
  route: string;
}

/** Node's request and response under a Hono context (@hono/node-server's bindings), when there are. */
function nodeOf(c: Context): { incoming?: IncomingMessage; outgoing?: ServerResponse } {
  return (c.env ?? {}) as { incoming?: IncomingMessage; outgoing?: ServerResponse };
}

/** 304 when the client has it, else the body in the encoding it takes best; a 200 is offered to `learn`. */
async function answer(c: Context, store: Store, entry: Entry, learn?: (c: Context, entry: Entry, body: Bytes) => void): Promise<Response> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', ETag: entry.etag, 'Cache-Control': 'no-cache', Vary: 'Accept-Encoding' };
  const ifNoneMatch = c.req.header('if-none-match');
  if (ifNoneMatch && matches(ifNoneMatch, entry.etag)) return c.body(null, 304, headers);
  const encoding = entry.identity.length >= COMPRESS_MIN_BYTES ? pickEncoding(c.req.header('accept-encoding')) : null;
  if (!encoding) {
    learn?.(c, entry, entry.identity);
    return c.body(entry.identity, 200, headers);
  }
  headers['Content-Encoding'] = encoding;
  const body = await encodedBody(store, entry, encoding);
  learn?.(c, entry, body);
  return c.body(body, 200, headers);
}

/** A kept answer still good `now`, or undefined (one past its time is dropped). */
function freshEntry(store: Store, key: string, now: number): Entry | undefined {
  const entry = store.get(key);
  if (!entry) return undefined;
  if (isFresh(entry, now)) return entry;
  store.drop(entry);
  return undefined;
}

const isFresh = (entry: Entry, now: number) => entry.from <= now && now < entry.until && performance.now() < entry.deadline;

export function createResponseCache(opts: { clock: Clock; maxEntries?: number; maxBytes?: number; maxAgeMs?: number; fastPaths?: RegExp }): ResponseCache {
  const { clock } = opts;
  const maxAgeMs = opts.maxAgeMs ?? MAX_AGE_MS;
  const store = new AnswerStore(opts.maxEntries ?? MAX_ENTRIES, opts.maxBytes ?? MAX_BYTES);
  const tags = createTags();
  const make = (key: string, tagList: string[], produce: () => Promise<PublicAnswer>) => build(key, tagList, produce, clock, maxAgeMs);
  const makeKept = createMaker(store, tags, make);
  let hits = 0;
  let misses = 0;
  const learned = new Map<string, Learned>();

  /** Once a 200 from `entry` has gone out through the middleware, its final headers and body are kept
   *  for fastServe under the request's raw key and encoding. */
  function learn(c: Context, entry: Entry, body: Bytes) {
    const { incoming, outgoing } = nodeOf(c);
    if (!opts.fastPaths?.test(c.req.path) || !incoming?.url || !outgoing || c.req.method !== 'GET' || c.req.header('if-none-match')) return;
    // Under the encoding the request asked for best (a small answer goes out as it is whatever it asked).
    const key = `${rawKey(incoming.url)}\n${pickEncoding(c.req.header('accept-encoding')) ?? ''}`;
    if (learned.get(key)?.entry === entry) return;
    const route = routeOf(c);
    // The headers as they go out: @hono/node-server hands them to writeHead, which keeps no copy of them
    // (getHeaders() would miss them).
    let sent: OutgoingHttpHeaders | null = null;
    const writeHead = outgoing.writeHead.bind(outgoing);
    outgoing.writeHead = ((status: number, ...rest: unknown[]) => {
      const headers = rest[rest.length - 1];
      if (headers && typeof headers === 'object' && !Array.isArray(headers)) sent = { ...outgoing.getHeaders(), ...(headers as OutgoingHttpHeaders) };
      return (writeHead as (...a: unknown[]) => ServerResponse)(status, ...rest);
    }) as typeof outgoing.writeHead;
    // The encoding of the bytes kept here: a small answer goes out as it is from here, and a middleware
    // after it (compress) may still encode it on the way; such an answer is not kept, since what went out
    // is not these bytes.
    const keptEncoding = body === entry.identity ? '' : (pickEncoding(c.req.header('accept-encoding')) ?? '');
    outgoing.once('finish', () => {
      if (outgoing.statusCode !== 200 || !sent || !store.holds(entry)) return;
      if (String(sent['content-encoding'] ?? '') !== keptEncoding) return;
      if (learned.size >= MAX_LEARNED) learned.clear();
      learned.set(key, { entry, headers: sent, body, route });
    });
  }

  function invalidate(tag: string) {
    tags.change(tag);
    store.dropTag(tag);
  }

  return {
    async serve(c, tagList, query, produce) {
      const key = cacheKey(c.req.path, query);
      if (key.length > MAX_KEY_LENGTH) {
        misses++;
        return answer(c, store, await make(key, tagList, produce));
      }
      let entry = freshEntry(store, key, clock.now());
      if (entry) {
        hits++;
        store.use(entry);
      } else {
        misses++;
        entry = await makeKept(key, tagList, produce);
      }
      return answer(c, store, entry, learn);
    },
    fastServe(req, res, onServed) {
      if (req.method !== 'GET' || !req.url || req.headers['if-none-match'] !== undefined) return false;
      const t0 = performance.now();
      const known = learned.get(`${rawKey(req.url)}\n${pickEncoding(req.headers['accept-encoding']) ?? ''}`);
      if (!known) return false;
      // Still the kept answer, and still good: otherwise the usual way makes or finds the current one.
      if (!store.holds(known.entry) || !isFresh(known.entry, clock.now())) return false;
      hits++;
      store.use(known.entry);
      res.writeHead(200, known.headers);
      res.end(known.body);
      onServed?.(known.route, t0);
      return true;
    },
    memoFor: (tag) => tags.memoFor(tag),
    onLiveMessage(message) {
      for (const tag of tagsChangedBy(message)) invalidate(tag);
    },
    dropAnswers: () => store.dropAll(),
    clear() {
      for (const tag of new Set([...store.tags(), ...tags.derivedTags()])) invalidate(tag);
      store.reset();
    },
    stats: () => ({ ...store.stats(), hits, misses }),
  };
}
