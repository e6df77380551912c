import {describe, expect, it} from 'vitest';
import {withoutGlobalFetch} from '../../source/cli/without-global-fetch.js';

describe('withoutGlobalFetch', () => {
	it('hides the global fetch while the load runs and puts the same one back', async () => {
		const before = globalThis.fetch;
		const seen = await withoutGlobalFetch(async () => {
			await Promise.resolve();
			return typeof globalThis.fetch;
		});
		expect(seen).toBe('undefined');
		expect(globalThis.fetch).toBe(before);
		expect(Object.getOwnPropertyDescriptor(globalThis, 'fetch')).toMatchObject({writable: true, configurable: true});
	});

	it('puts it back when the load fails', async () => {
		const before = globalThis.fetch;
		await expect(withoutGlobalFetch(async () => {
			throw new Error('no chunk');
		})).rejects.toThrow('no chunk');
		expect(globalThis.fetch).toBe(before);
	});
});
