import type { ExplorerSite } from '../../server/explorer/ExplorerSite.ts'

/** Read once from the shell's `#explorer-site` JSON: it does not change while the page is open. */
export const site: ExplorerSite = JSON.parse(document.getElementById('explorer-site')?.textContent ?? 'null') as ExplorerSite
