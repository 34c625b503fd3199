#!/usr/bin/env node
// Entry of the local MCP server over stdio (`npx -y <tarball or checkout>`): the bundle that
// `npm run build` writes from mcp/stdio/main.ts. Nothing is printed to stdout but protocol messages.
import '../dist/bin/tee-market-mcp.js'
