import {afterEach, describe, expect, it, vi} from 'vitest';
import {withoutFetchingDataUrls} from '../../source/cli/without-fetching-data-urls.js';

const wasm = 'data:application/octet-stream;base64,AGFzbQEAAAA=';

describe('withoutFetchingDataUrls', () => {
	const original = globalThis.fetch;
	afterEach(() => {
		globalThis.fetch = original;
	});

	it('refuses data: URLs while the load runs, passes other requests on, and puts the same fetch back', async () => {
		const real = vi.fn(async () => new Response('ok'));
		globalThis.fetch = real;
		const seen = await withoutFetchingDataUrls(async () => {
			await Promise.resolve();
			const refused = await globalThis.fetch(wasm).then(() => 'fetched', (error: unknown) => (error instanceof TypeError ? 'refused' : 'other'));
			const passed = await (await globalThis.fetch('https://127.0.0.1:6443/.well-known/openid-configuration', {method: 'GET'})).text();
			return {refused, passed};
		});
		expect(seen).toEqual({refused: 'refused', passed: 'ok'});
		expect(real).toHaveBeenCalledTimes(1);
		expect(real).toHaveBeenCalledWith('https://127.0.0.1:6443/.well-known/openid-configuration', {method: 'GET'});
		expect(globalThis.fetch).toBe(real);
		expect(Object.getOwnPropertyDescriptor(globalThis, 'fetch')).toMatchObject({writable: true, configurable: true});
	});

	it('puts it back when the load fails', async () => {
		await expect(withoutFetchingDataUrls(async () => {
			throw new Error('no chunk');
		})).rejects.toThrow('no chunk');
		expect(globalThis.fetch).toBe(original);
	});
});
