// Preloaded with `node --import`: makes process.versions.node read FAKE_NODE_VERSION, so an entry
// point can be run as if on another Node.js (only the version string changes, not the runtime).
const version = process.env.FAKE_NODE_VERSION
if (version !== undefined) Object.defineProperty(process.versions, 'node', { value: version, enumerable: true })
