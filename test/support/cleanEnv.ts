/**
 * This process's environment minus what would steer npm or the server: `npm test` sets npm_*
 * (npm_config_* would reach every npm these tests start), and MARKET_* configures the server.
 */
export const cleanEnv: Record<string, string> = Object.fromEntries(
  Object.entries(process.env).filter(
    (entry): entry is [string, string] =>
      entry[1] !== undefined && !entry[0].startsWith('MARKET_') && !entry[0].toLowerCase().startsWith('npm_'),
  ),
)
