import { BaseError } from '../../errors/BaseError.ts'
import { RpcDeadlineError } from '../../errors/chain.ts'

/** What health shows of a failed poll: our errors keep their code, the node's are transport failures. */
export function describeFailure(error: unknown): { code: string; message: string } {
  if (error instanceof BaseError) return { code: error.code, message: error.message }
  // It names the node and what it held; viem's wrappers (a batch, an action) only say "took too long".
  for (let link: unknown = error; link instanceof Error; link = link.cause) {
    if (link instanceof RpcDeadlineError) return { code: link.code, message: link.shortMessage }
  }
  const message = error instanceof Error ? ((error as { shortMessage?: string }).shortMessage ?? error.message) : String(error)
  const details = (error as { details?: unknown }).details
  return { code: 'rpc_failed', message: `${message.split('\n')[0]}${typeof details === 'string' && details !== '' ? ` (${details})` : ''}` }
}
