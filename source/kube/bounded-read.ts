/**
 * Every answer from the cluster is read against a byte limit, so that a server (or a proxy in front of it) that
 * sends a LIST that never ends, a gzip body that inflates to gigabytes or a watch line without a newline ends
 * that request with one line instead of filling memory. The limits are counted after decompression.
 */

/** One watch event (one line). client-go's streaming decoder refuses a frame past 16 MiB (ErrObjectTooLarge). */
export const maxWatchEventBytes = 16 * 1024 * 1024;

/**
 * One LIST answer (one page of `limit` objects). client-go reads it whole; planwatch asks for pages of 500, and
 * etcd keeps objects under 1.5 MiB, so a real page is a few MiB: 32 MiB is far beyond any, and bounded in memory.
 */
export const maxListResponseBytes = 32 * 1024 * 1024;

/** The part of an error answer (a Status, an HTML page) that is read to describe it. */
export const maxErrorBodyBytes = 64 * 1024;

/** `32 MiB`, `512 KiB`, `100 bytes`. */
export function byteSize(bytes: number): string {
	if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) {
		return `${bytes / (1024 * 1024)} MiB`;
	}

	if (bytes >= 1024 && bytes % 1024 === 0) {
		return `${bytes / 1024} KiB`;
	}

	return `${bytes} bytes`;
}

/** An answer (or one watch event) larger than its limit; planwatch stopped reading it and dropped the connection. */
export class TooLargeError extends Error {
	readonly limit: number;

	constructor(what: string, limit: number) {
		super(`${what} passed ${byteSize(limit)}; planwatch stopped reading it`);
		this.name = 'TooLargeError';
		this.limit = limit;
	}
}

/**
 * The whole body, or TooLargeError (`what` names it) once more than `maxBytes` arrived; the stream is cancelled
 * then. `progress.bytes` follows what has arrived.
 */
export async function readBounded(
	stream: ReadableStream<Uint8Array> | null,
	maxBytes: number,
	what: string,
	progress?: {bytes: number},
): Promise<Buffer> {
	if (!stream) {
		return Buffer.alloc(0);
	}

	const reader = stream.getReader();
	const chunks: Uint8Array[] = [];
	let total = 0;
	try {
		for (;;) {
			const {done, value} = await reader.read();
			if (done) {
				break;
			}

			total += value.byteLength;
			if (progress) {
				progress.bytes = total;
			}

			if (total > maxBytes) {
				throw new TooLargeError(what, maxBytes);
			}

			chunks.push(value);
		}
	} catch (error) {
		void reader.cancel().catch(() => undefined);
		throw error;
	}

	return Buffer.concat(chunks, total);
}

/** At most `maxBytes` of the body (the rest is not read); for describing error answers. */
export async function readPrefix(stream: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Buffer> {
	if (!stream) {
		return Buffer.alloc(0);
	}

	const reader = stream.getReader();
	const chunks: Uint8Array[] = [];
	let total = 0;
	try {
		while (total < maxBytes) {
			const {done, value} = await reader.read();
			if (done) {
				break;
			}

			chunks.push(value);
			total += value.byteLength;
		}
	} catch {
		// Whatever arrived describes the answer well enough.
	} finally {
		void reader.cancel().catch(() => undefined);
	}

	return Buffer.concat(chunks).subarray(0, maxBytes);
}

/**
 * Splits a byte stream into lines (`\n`, a trailing `\r` dropped), each at most `maxLineBytes`; a longer line
 * throws TooLargeError before it is held whole. Bytes are joined per line only, never the whole stream.
 */
export class LineSplitter {
	readonly #maxLineBytes: number;
	readonly #what: string;
	#pending: Uint8Array[] = [];
	#pendingBytes = 0;

	constructor(maxLineBytes: number, what: string) {
		this.#maxLineBytes = maxLineBytes;
		this.#what = what;
	}

	/** The complete lines in `chunk` (with what came before it). */
	push(chunk: Uint8Array): string[] {
		const lines: string[] = [];
		let start = 0;
		for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
			this.#add(chunk.subarray(start, newline));
			lines.push(this.#take());
			start = newline + 1;
		}

		if (start < chunk.length) {
			this.#add(chunk.subarray(start));
		}

		return lines;
	}

	/** What is left without a newline at the end of the stream. */
	end(): string[] {
		return this.#pendingBytes > 0 ? [this.#take()] : [];
	}

	#add(part: Uint8Array): void {
		this.#pendingBytes += part.byteLength;
		if (this.#pendingBytes > this.#maxLineBytes) {
			this.#pending = [];
			throw new TooLargeError(this.#what, this.#maxLineBytes);
		}

		if (part.byteLength > 0) {
			// A copy: the chunk's buffer is not ours to keep.
			this.#pending.push(part.slice());
		}
	}

	#take(): string {
		const text = Buffer.concat(this.#pending, this.#pendingBytes).toString('utf8');
		this.#pending = [];
		this.#pendingBytes = 0;
		return text.endsWith('\r') ? text.slice(0, -1) : text;
	}
}
