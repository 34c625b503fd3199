/** Service ids by seller (address in any case), each list ascending. */
export type SellerIndex = {
  /** The seller's service ids, ascending; the same array while the seller's services change. */
  get(seller: string): readonly bigint[]
  add(seller: string, serviceId: bigint): void
  remove(seller: string, serviceId: bigint): void
  clear(): void
}

type SellerServices = { serviceIds: bigint[] }

const noIds: readonly bigint[] = []

export function createSellerIndex(): SellerIndex {
  const sellers = new Map<string, SellerServices>()
  const sellerServices = (seller: string): SellerServices => {
    const key = seller.toLowerCase()
    let services = sellers.get(key)
    if (services === undefined) {
      services = { serviceIds: [] }
      sellers.set(key, services)
    }
    return services
  }
  return {
    get: (seller) => sellers.get(seller.toLowerCase())?.serviceIds ?? noIds,
    add: (seller, serviceId) => insertSorted(sellerServices(seller).serviceIds, serviceId),
    remove: (seller, serviceId) => removeSorted(sellerServices(seller).serviceIds, serviceId),
    clear: () => sellers.clear(),
  }
}

/** Ids almost always arrive in order, so the common case is a push. */
function insertSorted(ids: bigint[], id: bigint): void {
  const last = ids.at(-1)
  if (last === undefined || last < id) {
    ids.push(id)
    return
  }
  const index = lowerBound(ids, id)
  if (ids[index] !== id) ids.splice(index, 0, id)
}

function removeSorted(ids: bigint[], id: bigint): void {
  const index = lowerBound(ids, id)
  if (ids[index] === id) ids.splice(index, 1)
}

function lowerBound(ids: readonly bigint[], id: bigint): number {
  let low = 0
  let high = ids.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((ids[middle] as bigint) < id) low = middle + 1
    else high = middle
  }
  return low
}
