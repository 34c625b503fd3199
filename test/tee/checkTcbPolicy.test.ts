import { describe, expect, test } from 'vitest'
import { TeeTcbNotAcceptedError } from '../../errors/tee.ts'
import { checkTcbPolicy } from '../../tee/checkTcbPolicy.ts'
import { defaultTcbPolicy } from '../../tee/defaultTcbPolicy.ts'

test('default: UpToDate and SWHardeningNeeded pass on their own', () => {
  expect(checkTcbPolicy({ status: 'UpToDate', advisoryIds: [], policy: defaultTcbPolicy })).toEqual({ acceptedBy: 'status' })
  expect(checkTcbPolicy({ status: 'SWHardeningNeeded', advisoryIds: ['INTEL-SA-00615'], policy: defaultTcbPolicy })).toEqual({ acceptedBy: 'status' })
})

describe('allowedAdvisoryIds', () => {
  const policy = { ...defaultTcbPolicy, allowedAdvisoryIds: ['INTEL-SA-00289', 'intel-sa-00615'] }

  test('a status outside the list passes when each of its advisories is allowed (any case)', () => {
    expect(checkTcbPolicy({ status: 'ConfigurationAndSWHardeningNeeded', advisoryIds: ['INTEL-SA-00289', 'INTEL-SA-00615'], policy })).toEqual({ acceptedBy: 'advisories' })
  })

  test('one advisory not allowed refuses it', () => {
    expect(() => checkTcbPolicy({ status: 'OutOfDate', advisoryIds: ['INTEL-SA-00289', 'INTEL-SA-00837'], policy })).toThrow(TeeTcbNotAcceptedError)
  })

  test('a status with no advisory is not allowed by an advisory list', () => {
    expect(() => checkTcbPolicy({ status: 'OutOfDate', advisoryIds: [], policy })).toThrow(TeeTcbNotAcceptedError)
  })

  test('Revoked is never allowed', () => {
    expect(() => checkTcbPolicy({ status: 'Revoked', advisoryIds: ['INTEL-SA-00289'], policy })).toThrow(TeeTcbNotAcceptedError)
  })
})
