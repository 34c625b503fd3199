import type { FastifyHelmetOptions } from '@fastify/helmet'

export type BuildPageHeadersParameters = {
  /** What one page needs beyond files from this server (see hashInlineSources); nothing by default. */
  allow?: {
    /** Sources added to `script-src`: hashes of the page's own inline scripts. */
    scripts?: readonly string[] | undefined
    /** Sources added to `style-src`: hashes of its style elements. */
    styles?: readonly string[] | undefined
    /** Hashes of its `style` attributes, allowed with `'unsafe-hashes'`. */
    styleAttributes?: readonly string[] | undefined
    /** Sources for `worker-src` (a bundle that starts its worker from a `blob:` URL it made itself). */
    workers?: readonly string[] | undefined
  }
}

export type BuildPageHeadersReturnType = FastifyHelmetOptions

/**
 * The headers of the pages this server shows people (the explorer, `/docs`, `/docs/swagger`), as
 * @fastify/helmet options. Everything a page runs, styles or fetches comes from this server: no
 * inline script or style but the ones a page declares by hash, no `eval`, no plugins, no `<base>`
 * that would move relative URLs. The pages may not be framed (clickjacking), are not sniffed as
 * another type, and send no Referer: the explorer's paths name addresses, and its links lead to
 * another site (the block explorer).
 *
 * Left out on purpose: `upgrade-insecure-requests`, which would send a plain-HTTP deployment's own
 * scripts to an HTTPS port nobody listens on; and Strict-Transport-Security, which binds the whole
 * host (the API too) for a year and belongs to whatever terminates TLS for it (deploy/nginx.conf).
 */
export function buildPageHeaders({ allow = {} }: BuildPageHeadersParameters = {}): BuildPageHeadersReturnType {
  const { scripts = [], styles = [], styleAttributes = [], workers = [] } = allow
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'none'"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        imgSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        scriptSrc: ["'self'", ...scripts],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", ...styles, ...(styleAttributes.length > 0 ? ["'unsafe-hashes'", ...styleAttributes] : [])],
        ...(workers.length > 0 ? { workerSrc: ["'self'", ...workers] } : {}),
      },
    },
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  }
}
