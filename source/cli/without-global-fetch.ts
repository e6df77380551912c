/**
 * yoga-layout, Ink's layout engine, is an Emscripten build that decodes its embedded WebAssembly (a `data:` URL)
 * with `fetch` whenever a global fetch exists (getBinaryPromise in
 * node_modules/yoga-layout/dist/binaries/yoga-wasm-base64-esm.js), and from the base64 itself otherwise. In Node
 * the first call of the global fetch loads Node's own undici with http, http2, tls and zlib: tens of ms of CPU
 * before the first frame, for a string planwatch never needs a network stack to decode. The TUI's chunk is
 * therefore imported while there is no global fetch; it is back as soon as the import settles. Nothing of
 * planwatch's calls the global fetch (client-node brings its own).
 */
export async function withoutGlobalFetch<T>(load: () => Promise<T>): Promise<T> {
	const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
	if (!descriptor?.configurable) {
		return load();
	}

	Object.defineProperty(globalThis, 'fetch', {value: undefined, writable: true, enumerable: descriptor.enumerable, configurable: true});
	try {
		return await load();
	} finally {
		Object.defineProperty(globalThis, 'fetch', descriptor);
	}
}
