import { expect, it } from 'vitest'
import { deploymentWarnings } from './deployment-checks.ts'

it('PostgreSQL with files on the local disk is warned about; the other shapes are not', () => {
	const [warning, ...rest] = deploymentWarnings({ DATABASE_URL: 'postgres://db/ataa', STORAGE_URL: undefined })
	expect(warning).toMatch(/^DATABASE_URL is set but uploaded files are kept on this machine's disk .*set STORAGE_URL/)
	expect(rest).toEqual([])
	expect(deploymentWarnings({ DATABASE_URL: 'postgres://db/ataa', STORAGE_URL: 's3://ataa-files?region=me-south-1' })).toEqual([])
	expect(deploymentWarnings({ DATABASE_URL: undefined, STORAGE_URL: undefined })).toEqual([])
})
