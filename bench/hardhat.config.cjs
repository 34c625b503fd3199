// CommonJS because the package is ESM and hardhat 2 loads its config with require().
// The bench's node: the devnet's chain, in memory that stays bounded while it mines 100,000 jobs
// (node peak RSS at 100,000 jobs: >24 GB, killed by the kernel, before; ~2.5 GB with this file).
// hardhat evaluates this file in the node's own process before its Rust core (EDR) starts.
const { subtask } = require('hardhat/config')
const { TASK_NODE_CREATE_SERVER } = require('hardhat/builtin-tasks/task-names')

// EDR answers each request with an object that holds the execution trace of every call it ran
// (one block of 90 createJob calls: tens of MB). To V8 that object weighs a few bytes, so with
// the node's small JavaScript heap no full collection came due and traces piled up (6.6 GB at
// 10,000 jobs). A collection every half second frees them; its cost did not show in the node's
// CPU time.
require('node:v8').setFlagsFromString('--expose-gc')
const collectGarbage = require('node:vm').runInNewContext('gc')
setInterval(() => collectGarbage(), 500).unref()

// EDR runs each request on a thread of its blocking pool, and the hardhat server hands it a
// JSON-RPC batch all at once, so the pool grew to ~60 threads. A trace freed from JavaScript
// goes back to the allocator heap of the thread that built it, and with requests rotating over
// 60 threads each heap sat on its last traces: 3.2 GB against 0.65 GB for the same 5,400 calls.
// EDR handles one request at a time behind its own lock anyway, so passing it one at a time
// keeps the pool at a thread or two and costs nothing (generation got faster, not slower).
subtask(TASK_NODE_CREATE_SERVER).setAction((args, _hre, runSuper) => runSuper({ ...args, provider: oneAtATime(args.provider) }))

// EDR keeps the state after every block (100,000 by default) so that calls at old blocks are
// quick; each kept state holds the trie nodes its block replaced (~30 KB a job here). The bench
// only reads at the head, and an older state is still recomputed from block diffs if asked for.
process.env.__EDR_MAX_CACHED_STATES = '16'

/** The same provider, except that a request starts only once the previous one has finished. */
function oneAtATime(provider) {
  let previous = Promise.resolve()
  const settled = () => undefined
  const request = (args) => {
    const answer = previous.then(() => provider.request(args))
    // Not the answer itself: a large one (eth_getLogs) would be held until the next request.
    previous = answer.then(settled, settled)
    return answer
  }
  return new Proxy(provider, {
    get: (target, key) => {
      if (key === 'request') return request
      const value = Reflect.get(target, key)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

module.exports = require('../devnet/hardhat.config.cjs')
