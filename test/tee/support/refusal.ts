/** The error `run` throws; a test that expected a refusal fails when it throws none. */
export function refusal(run: () => unknown): Error {
  try {
    run()
  } catch (error) {
    return error as Error
  }
  throw new Error('expected a refusal')
}
