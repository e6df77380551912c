/**
 * yoga-layout, Ink's layout engine, is an Emscripten build that decodes its embedded WebAssembly (a `data:` URL)
 * with the global fetch when there is one, and with its own base64 decoder when there is none or when that fetch
 * fails (getBinaryPromise, minified, in node_modules/yoga-layout/dist/binaries/yoga-wasm-base64-esm.js). In Node the
 * first call of the global fetch loads Node's own undici with http, http2, tls and zlib: tens of ms of CPU before
 * the first frame, for a string that needs no network stack. While the TUI's chunk is imported, the global fetch
 * therefore refuses `data:` URLs and passes everything else on to Node's: a request that runs meanwhile (an OIDC
 * token refresh through client-node's openid-client) still gets the real fetch. It is back as the import settles.
 * Measured: importing yoga-layout alone in a bare Node 26 costs ~120–135 ms of CPU with the global fetch and
 * ~30–38 ms with data: URLs refused (`npm exec -- node test/bench/interventions.mjs`, minimum of 8 runs);
 * test/cli/startup-loading.test.ts fails if undici loads again. Listed in docs/interventions.md.
 */
export async function withoutFetchingDataUrls<T>(load: () => Promise<T>): Promise<T> {
	const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
	const fetch = descriptor?.value as typeof globalThis.fetch | undefined;
	if (!descriptor?.configurable || typeof fetch !== 'function') {
		return load();
	}

	const refusingDataUrls = async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]): Promise<Response> =>
		typeof input === 'string' && input.startsWith('data:')
			? Promise.reject(new TypeError('planwatch: no fetch of data: URLs while the TUI loads'))
			: fetch(input, init);
	Object.defineProperty(globalThis, 'fetch', {...descriptor, value: refusingDataUrls});
	try {
		return await load();
	} finally {
		Object.defineProperty(globalThis, 'fetch', descriptor);
	}
}
