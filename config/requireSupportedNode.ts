import { refuseUnsupportedNode } from './refuseUnsupportedNode.ts'

// The first step of `npm start`, `npm run serve` and the other entry scripts, before their build
// steps (tsup, the explorer's bundle): an unsupported Node.js is refused with one line before
// anything is built, not after a build's own output.
refuseUnsupportedNode()
