import { measurePackage, packageTargets } from './measurePackage.ts'

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`
const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`

const result = await measurePackage({ log: (message) => process.stderr.write(`bench:package: ${message}\n`) })
const rows: [string, string, string, boolean][] = [
  ['installed size (npm i <tarball>)', mb(result.installedBytes), `<= ${mb(packageTargets.installedBytes)}`, result.installedBytes <= packageTargets.installedBytes],
  ['first tools/list, new tarball', s(result.firstToolsListMs), `<= ${s(packageTargets.firstToolsListMs)}`, result.firstToolsListMs <= packageTargets.firstToolsListMs],
  ['tools/list once npx holds it', s(result.warmToolsListMs), `<= ${s(packageTargets.warmToolsListMs)}`, result.warmToolsListMs <= packageTargets.warmToolsListMs],
  ['npm warn lines of npm i <tarball>', String(result.installWarnings.length), '0', result.installWarnings.length === 0],
]
console.log(`tarball ${mb(result.tarballBytes)}, ${result.installedPackages} packages installed, tools: ${result.tools.join(', ')}`)
for (const warning of result.installWarnings) console.log(warning)
for (const [name, value, target, met] of rows) console.log(`${met ? 'met   ' : 'MISSED'}  ${name.padEnd(34)} ${value.padStart(9)}  (${target})`)
process.exitCode = rows.every(([, , , met]) => met) ? 0 : 1
