import { z } from 'zod'
import { SellerBackendError } from '../../../errors/seller.ts'
import type { SellerBackend, SellerBackendRequest, SellerBackendAnswer } from './SellerBackend.ts'

export type CreateOpenAiBackendParameters = {
  /** Base URL of an OpenAI-compatible API, e.g. `http://127.0.0.1:11434/v1`. */
  url: string
  /** The `model` sent with each request; the service's modelId when absent. */
  model?: string | undefined
  /** Sent as `Authorization: Bearer <apiKey>` when set. */
  apiKey?: string | undefined
  timeoutMs?: number
}

export type CreateOpenAiBackendReturnType = SellerBackend

const ChatCompletionSchema = z.object({
  model: z.string().optional(),
  choices: z
    .array(z.object({ message: z.object({ content: z.string().nullable() }) }))
    .min(1),
  usage: z
    .object({ prompt_tokens: z.number().int().nonnegative(), completion_tokens: z.number().int().nonnegative() })
    .optional(),
})

/**
 * Answers through any OpenAI-compatible chat endpoint (`POST {url}/chat/completions`), one user
 * message per job. Usage comes from the endpoint's `usage` record, zeros when it sends none.
 */
export function createOpenAiBackend({
  url,
  model,
  apiKey,
  timeoutMs = 120_000,
}: CreateOpenAiBackendParameters): CreateOpenAiBackendReturnType {
  const endpoint = `${url.replace(/\/+$/, '')}/chat/completions`
  const name = 'openai'

  return {
    name,
    async answer({ modelId, prompt }: SellerBackendRequest): Promise<SellerBackendAnswer> {
      const requestedModel = model ?? modelId
      let response: Response
      try {
        response = await fetch(endpoint, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` }),
          },
          body: JSON.stringify({
            model: requestedModel,
            messages: [{ role: 'user', content: prompt }],
          }),
          signal: AbortSignal.timeout(timeoutMs),
        })
      } catch (cause) {
        throw new SellerBackendError(name, `${endpoint} could not be reached`, { cause })
      }
      if (!response.ok) {
        throw new SellerBackendError(name, `${endpoint} answered HTTP ${response.status}`)
      }
      let body: unknown
      try {
        body = await response.json()
      } catch (cause) {
        throw new SellerBackendError(name, `${endpoint} answered with a body that is not JSON`, { cause })
      }
      const parsed = ChatCompletionSchema.safeParse(body)
      if (!parsed.success) {
        throw new SellerBackendError(name, `${endpoint} answered without choices[0].message.content`, {
          cause: parsed.error,
        })
      }
      const { choices, usage, model: answeredModel } = parsed.data
      return {
        output: choices[0]?.message.content ?? '',
        usage: {
          model: answeredModel ?? requestedModel,
          promptTokens: usage?.prompt_tokens ?? 0,
          completionTokens: usage?.completion_tokens ?? 0,
        },
      }
    },
  }
}
