import type { ExplorerSite } from './ExplorerSite.ts'

/** `teeJs`: the TEE verifier, which a service page imports only when the reader asks it to verify. */
export const explorerAssetPaths = { js: '/explorer/explorer.js', css: '/explorer/explorer.css', teeJs: '/explorer/explorer-tee.js' } as const

/**
 * The one HTML page of the explorer, served at each of its paths: the page reads the path and
 * renders it. Everything it loads comes from this server (no CDN, no font, not even a favicon).
 */
export function buildExplorerShell({ site }: { site: ExplorerSite }): string {
  // `<` escaped, so no value can close the script element it sits in.
  const siteJson = JSON.stringify(site).replace(/</g, '\\u003c')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>TEE Market explorer</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${explorerAssetPaths.css}">
<script type="application/json" id="explorer-site">${siteJson}</script>
<script type="module" src="${explorerAssetPaths.js}"></script>
</head>
<body>
<div id="explorer"></div>
<noscript>The explorer needs JavaScript. The same data is in the API: <a href="/docs">API reference</a>.</noscript>
</body>
</html>
`
}
