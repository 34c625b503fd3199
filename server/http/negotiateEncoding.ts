/** The content codings we compress with, in the order we prefer them when the client weighs them equally. */
export const contentCodings = ['br', 'gzip'] as const

export type ContentCoding = (typeof contentCodings)[number]

export type NegotiateEncodingReturnType = ContentCoding | 'identity'

/**
 * Picks the coding for an answer from the request's `Accept-Encoding`: the acceptable one with the
 * highest weight (`q`), `*` standing for any coding not named; no header, or nothing acceptable
 * we support, means the body is sent as it is.
 */
export function negotiateEncoding(acceptEncoding: string | undefined): NegotiateEncodingReturnType {
  if (acceptEncoding === undefined || acceptEncoding === '') return 'identity'
  const weights = new Map<string, number>()
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...parameters] = part.split(';')
    const q = parameters.map((parameter) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(parameter)?.[1]).find((value) => value !== undefined)
    weights.set(name.trim().toLowerCase(), q === undefined ? 1 : Number(q))
  }
  let best: NegotiateEncodingReturnType = 'identity'
  let bestWeight = 0
  for (const coding of contentCodings) {
    const weight = weights.get(coding) ?? weights.get('*') ?? 0
    if (weight > bestWeight) {
      best = coding
      bestWeight = weight
    }
  }
  return best
}
