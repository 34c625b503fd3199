import { arbiterAbi } from '../../chain/abi/arbiter.ts'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { registryAbi } from '../../chain/abi/registry.ts'
import { arbiterJobEventNames } from '../../contract/job.ts'

type EventOf<abi extends readonly { type: string }[]> = Extract<abi[number], { type: 'event' }>
type ArbiterJobEvent = Extract<EventOf<typeof arbiterAbi>, { name: (typeof arbiterJobEventNames)[number] }>

export const registryEvents = registryAbi.filter((item): item is EventOf<typeof registryAbi> => item.type === 'event')
export const escrowEvents = escrowAbi.filter((item): item is EventOf<typeof escrowAbi> => item.type === 'event')
/** The arbiter's events about a job's dispute; its bond events are not part of any job's history. */
export const arbiterJobEvents = arbiterAbi.filter(
  (item): item is ArbiterJobEvent =>
    item.type === 'event' && (arbiterJobEventNames as readonly string[]).includes(item.name),
)

/** Every event the indexer reads, of the registry, the escrow and the arbiter: one `eth_getLogs` filter covers them all. */
export const marketEvents = [...registryEvents, ...escrowEvents, ...arbiterJobEvents]
