#!/usr/bin/env node
// Entry of `npx -y tee-market`: the local MCP server over stdio. The sources are TypeScript,
// run through tsx's loader; nothing is printed to stdout but protocol messages.
import { register } from 'tsx/esm/api'

register()
await import('../mcp/stdio/main.ts')
