import { escrowAbi } from '../../chain/abi/escrow.ts'
import { registryAbi } from '../../chain/abi/registry.ts'

type EventOf<abi extends readonly { type: string }[]> = Extract<abi[number], { type: 'event' }>

export const registryEvents = registryAbi.filter((item): item is EventOf<typeof registryAbi> => item.type === 'event')
export const escrowEvents = escrowAbi.filter((item): item is EventOf<typeof escrowAbi> => item.type === 'event')

/** Every event of the registry and the escrow: one `eth_getLogs` filter covers them all. */
export const marketEvents = [...registryEvents, ...escrowEvents]
