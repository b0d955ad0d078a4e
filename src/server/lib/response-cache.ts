import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Context } from 'hono';
import { ENVELOPE_DEFAULT_WAIT } from '../../shared/constants';
import type { ServerMessage } from '../../shared/socket-events';
import type { ListMemo } from '../db/paging';
import type { Clock } from './clock';

// Public GETs (project and news lists and details, content) answered from memory: the envelope encoded
// once, compressed once per encoding asked for (brotli, gzip), with a weak ETag so a client that has it
// gets 304. docs/decisions/0015-scale.md "The list path" has the reasoning; in short:
// - Invalidation: the socket's own events. The live hub hands every event it delivers to
//   onLiveMessage(): `invalidate` of projects or news drops the lists (and their counts and cursors) and
//   the details named by `ids` (every detail when there are none). The hub learns of commits from this
//   process, other instances and the operator CLI (NOTIFY on PostgreSQL; on SQLite an in-process signal and
//   a 500 ms poll), and only after they commit, so an answer made from older rows is dropped after it.
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
  /** Values derived from the rows of `tag` (counts per filter, cursors per page), dropped with them. */
  memoFor(tag: string): ListMemo;
  /** An event the hub delivered: drops what it changed. */
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

export function createResponseCache(opts: { clock: Clock; maxEntries?: number; maxBytes?: number; maxAgeMs?: number }): ResponseCache {
  const { clock } = opts;
  const maxEntries = opts.maxEntries ?? MAX_ENTRIES;
  const maxBytes = opts.maxBytes ?? MAX_BYTES;
  const maxAgeMs = opts.maxAgeMs ?? MAX_AGE_MS;
  const entries = new Map<string, Entry>(); // in order of last use
  const byTag = new Map<string, Set<string>>();
  const epochs = new Map<string, number>();
  const pending = new Map<string, Pending>();
  const derived = new Map<string, Map<string, unknown>>();
  let bytes = 0;
  let hits = 0;
  let misses = 0;

  const epochOf = (tag: string) => epochs.get(tag) ?? 0;

  function drop(entry: Entry) {
    if (entries.get(entry.key) !== entry) return;
    entries.delete(entry.key);
    bytes -= entry.bytes;
    for (const tag of entry.tags) byTag.get(tag)?.delete(entry.key);
  }

  function trim() {
    for (const oldest of entries.values()) {
      if (entries.size <= maxEntries && bytes <= maxBytes) break;
      drop(oldest);
    }
  }

  function store(entry: Entry) {
    const old = entries.get(entry.key);
    if (old) drop(old);
    entries.set(entry.key, entry);
    bytes += entry.bytes;
    for (const tag of entry.tags) {
      let keys = byTag.get(tag);
      if (!keys) byTag.set(tag, (keys = new Set()));
      keys.add(entry.key);
    }
    trim();
  }

  function invalidate(tag: string) {
    epochs.set(tag, epochOf(tag) + 1);
    derived.delete(tag);
    const keys = byTag.get(tag);
    if (!keys) return;
    for (const key of [...keys]) {
      const entry = entries.get(key);
      if (entry) drop(entry);
    }
    byTag.delete(tag);
  }

  function fresh(entry: Entry): boolean {
    const now = clock.now();
    return entry.from <= now && now < entry.until && performance.now() < entry.deadline;
  }

  async function build(key: string, tags: string[], produce: () => Promise<PublicAnswer>): Promise<Entry> {
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

  function make(key: string, tags: string[], produce: () => Promise<PublicAnswer>): Promise<Entry> {
    const joined = pending.get(key);
    if (joined && joined.tags.every((t, i) => epochOf(t) === joined.epochs[i])) return joined.promise;
    const started = tags.map(epochOf);
    const promise = (async () => {
      const entry = await build(key, tags, produce);
      // Kept only if nothing it was made from changed meanwhile; the callers get it either way.
      if (tags.every((t, i) => epochOf(t) === started[i])) store(entry);
      return entry;
    })();
    const record: Pending = { promise, tags, epochs: started };
    pending.set(key, record);
    const forget = () => {
      if (pending.get(key) === record) pending.delete(key);
    };
    promise.then(forget, forget);
    return promise;
  }

  async function encodedBody(entry: Entry, encoding: Encoding): Promise<Bytes> {
    const have = entry.encoded[encoding];
    if (have) return have;
    const promise = (encoding === 'br' ? brotli(entry.identity, BROTLI_OPTIONS) : gzip(entry.identity)).then((out) => {
      const buf = out as Bytes;
      entry.encoded[encoding] = buf;
      if (entries.get(entry.key) === entry) {
        entry.bytes += buf.length;
        bytes += buf.length;
        trim();
      }
      return buf;
    });
    entry.encoded[encoding] = promise;
    return promise;
  }

  async function answer(c: Context, entry: Entry): Promise<Response> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', ETag: entry.etag, 'Cache-Control': 'no-cache', Vary: 'Accept-Encoding' };
    const ifNoneMatch = c.req.header('if-none-match');
    if (ifNoneMatch && matches(ifNoneMatch, entry.etag)) return c.body(null, 304, headers);
    const encoding = entry.identity.length >= COMPRESS_MIN_BYTES ? pickEncoding(c.req.header('accept-encoding')) : null;
    if (!encoding) return c.body(entry.identity, 200, headers);
    headers['Content-Encoding'] = encoding;
    return c.body(await encodedBody(entry, encoding), 200, headers);
  }

  return {
    async serve(c, tags, query, produce) {
      const key = cacheKey(c.req.path, query);
      if (key.length > MAX_KEY_LENGTH) {
        misses++;
        return answer(c, await build(key, tags, produce));
      }
      let entry = entries.get(key);
      if (entry && !fresh(entry)) {
        drop(entry);
        entry = undefined;
      }
      if (entry) {
        hits++;
        entries.delete(key); // most recently used goes last
        entries.set(key, entry);
      } else {
        misses++;
        entry = await make(key, tags, produce);
      }
      return answer(c, entry);
    },

    memoFor(tag) {
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
    },

    onLiveMessage(message) {
      if (message.type !== 'invalidate') return;
      // The transparency figures (docs/product.md#retirement) move with projects' supply, bookings and
      // retirements.
      if (message.tables.some((t) => t === 'projects' || t === 'orders' || t === 'retirements')) invalidate('transparency');
      for (const table of message.tables) {
        if (table !== 'projects' && table !== 'news') continue;
        const one = table === 'projects' ? 'project' : 'news';
        invalidate(table);
        if (message.ids && message.ids.length > 0) for (const id of message.ids) invalidate(`${one}:${id}`);
        else invalidate(`${one}:*`);
      }
    },

    dropAnswers() {
      for (const entry of [...entries.values()]) drop(entry);
    },

    clear() {
      for (const tag of new Set([...byTag.keys(), ...derived.keys()])) invalidate(tag);
      entries.clear();
      bytes = 0;
    },

    stats: () => ({ entries: entries.size, bytes, hits, misses }),
  };
}
