import packageJson from '../../package.json' with { type: 'json' }

/** This package's version, for start lines (bundled into builds, as answerInfoFlags reads it). */
export const packageVersion: string = packageJson.version
