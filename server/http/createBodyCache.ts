import { compressBody } from './compressBody.ts'
import type { ContentCoding } from './negotiateEncoding.ts'

/** One serialized body, as sent, and its compressed forms once asked for. */
export type CachedBody = {
  readonly identity: Buffer
  /** The body compressed with `coding`: compressed once, then kept as long as the entry. */
  encoded(coding: ContentCoding): Promise<Buffer>
}

export type BodyCache = {
  /** The body kept under `key`, if it was built from this same `version`. */
  get(key: string, version: number): CachedBody | undefined
  /** Keeps `identity` as the body of `key` at `version`, unless it alone is over the bound. */
  put(key: string, version: number, identity: Buffer): CachedBody
}

export type CreateBodyCacheParameters = {
  /** Bound on the bytes kept, compressed forms included; the least recently used go first. */
  maxBytes: number
}

type Entry = CachedBody & { version: number; bytes: number }

/**
 * Serialized bodies by request URL and store version, for answers that are expensive to build and
 * asked for again and again (a seller's record is megabytes of JSON). A new version replaces the
 * old body; nothing is ever served for a version other than the one it was built from.
 */
export function createBodyCache({ maxBytes }: CreateBodyCacheParameters): BodyCache {
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const entries = new Map<string, Entry>()
  let totalBytes = 0

  const evict = (): void => {
    for (const [key, entry] of entries) {
      if (totalBytes <= maxBytes) return
      entries.delete(key)
      totalBytes -= entry.bytes
    }
  }

  const createEntry = (key: string, version: number, identity: Buffer): Entry => {
    const encodings = new Map<ContentCoding, Promise<Buffer>>()
    const entry: Entry = {
      version,
      identity,
      bytes: identity.length,
      encoded(coding) {
        let encoding = encodings.get(coding)
        if (encoding === undefined) {
          encoding = compressBody(identity, coding)
          encodings.set(coding, encoding)
          encoding.then(
            (compressed) => {
              if (entries.get(key) !== entry) return
              entry.bytes += compressed.length
              totalBytes += compressed.length
              evict()
            },
            () => encodings.delete(coding),
          )
        }
        return encoding
      },
    }
    return entry
  }

  return {
    get(key, version) {
      const entry = entries.get(key)
      if (entry === undefined || entry.version !== version) return undefined
      entries.delete(key)
      entries.set(key, entry)
      return entry
    },
    put(key, version, identity) {
      const entry = createEntry(key, version, identity)
      const previous = entries.get(key)
      if (previous !== undefined) {
        entries.delete(key)
        totalBytes -= previous.bytes
      }
      if (identity.length > maxBytes) return entry
      entries.set(key, entry)
      totalBytes += entry.bytes
      evict()
      return entry
    },
  }
}
