/**
 * Reading `-f FILE|-` and `planwatch replay FILE` with bounds: in chunks, never the whole input at once, so that
 * /dev/zero, /dev/urandom, a FIFO fed forever or a file that grows while read cost one chunk of memory before they
 * are refused, the same way as a regular file. Binary input is refused at its first NUL byte or invalid UTF-8
 * sequence (a YAML or JSON file is UTF-8 text; kubectl's YAML reader refuses the same), and the whole input is
 * capped. Every refusal is one InputError naming the input and the limit (exit 2).
 */
import {createReadStream} from 'node:fs';
import {open} from 'node:fs/promises';
import process from 'node:process';
import {InputError} from '../core/errors.js';
import {sanitizeLine} from '../model/sanitize.js';

export const inputLimits = {
	/** One input (a file, stdin, a recording): far above a `kubectl get -o yaml` of 100 000 Instances (150 MB). */
	maxInputBytes: 256 * 1024 * 1024,
	/**
	 * One YAML document, or one item of a List (a List's items are read one by one): the API server takes at most
	 * 3 MiB in one request, etcd stores at most 1.5 MiB per object.
	 */
	maxDocumentBytes: 8 * 1024 * 1024,
	/** Bytes read at a time. */
	chunkBytes: 64 * 1024,
} as const;

/** A limit as it is named in messages. */
export const mib = (bytes: number): string => (bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MiB` : `${bytes / 1024} KiB`);

/** Where the bytes of an input come from; injected by tests. `path` `-` is stdin. */
export type InputReader = {
	/** `maxBytes`: a regular file larger than that may be refused before it is read. */
	chunks(path: string, maxBytes: number): AsyncIterable<Uint8Array | string>;
};

/** What the user called the input, for messages. */
export function inputName(path: string): string {
	return path === '-' ? 'stdin' : sanitizeLine(path, 200);
}

const readErrors: Record<string, string> = {
	ENOENT: 'no such file',
	EACCES: 'permission denied',
	EPERM: 'permission denied',
	EISDIR: 'is a directory',
	ENOTDIR: 'not a directory',
	ELOOP: 'too many symbolic links',
	EMFILE: 'too many open files',
	EIO: 'input/output error',
};

/** The one line for an error of the file system while opening or reading `name`. */
export function readFailure(error: unknown, name: string): InputError {
	if (error instanceof InputError) {
		return error;
	}

	const code = (error as NodeJS.ErrnoException).code ?? '';
	return new InputError(`cannot read ${name}: ${readErrors[code] ?? sanitizeLine((error as Error).message, 200)}`);
}

async function* fileChunks(path: string, maxBytes: number): AsyncGenerator<Uint8Array> {
	// A regular file's size is known: too big is refused before a byte is read. Opening blocks on a FIFO until it
	// has a writer, as `cat` does; a signal still ends the run (the wait is on a worker thread).
	const handle = await open(path, 'r');
	try {
		const info = await handle.stat();
		if (info.isDirectory()) {
			throw new InputError(`cannot read ${inputName(path)}: is a directory`);
		}

		if (info.isFile() && info.size > maxBytes) {
			throw new InputError(`${inputName(path)}: larger than ${mib(maxBytes)} (the limit of one input)`);
		}

		yield* createReadStream('', {fd: handle.fd, autoClose: false, highWaterMark: inputLimits.chunkBytes}) as AsyncIterable<Uint8Array>;
	} finally {
		await handle.close().catch(() => undefined);
	}
}

export const processReader: InputReader = {
	chunks: (path, maxBytes) => (path === '-' ? (process.stdin as AsyncIterable<Uint8Array>) : fileChunks(path, maxBytes)),
};

/**
 * The first byte offset at which `bytes` is not UTF-8, or -1. A sequence cut at the end is not an error: its
 * rest is in the next chunk (its length is `incomplete`).
 */
export function invalidUtf8At(bytes: Uint8Array): {invalid: number; incomplete: number} {
	let i = 0;
	while (i < bytes.length) {
		const b = bytes[i]!;
		if (b < 0x80) {
			i++;
			continue;
		}

		const need = b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
		if (need === -1) {
			return {invalid: i, incomplete: 0};
		}

		for (let k = 1; k <= need; k++) {
			if (i + k >= bytes.length) {
				return {invalid: -1, incomplete: bytes.length - i};
			}

			const c = bytes[i + k]!;
			// The second byte's range rules out overlong forms, surrogates and code points past U+10FFFF.
			const low = k === 1 && b === 0xe0 ? 0xa0 : k === 1 && b === 0xf0 ? 0x90 : 0x80;
			const high = k === 1 && b === 0xed ? 0x9f : k === 1 && b === 0xf4 ? 0x8f : 0xbf;
			if (c < low || c > high) {
				return {invalid: i, incomplete: 0};
			}
		}

		i += need + 1;
	}

	return {invalid: -1, incomplete: 0};
}

/**
 * The input's text, chunk by chunk (a leading BOM dropped), or an InputError at the first sign of binary data or
 * once it passes `maxBytes`. The reader is closed when the caller stops early.
 */
export async function* textChunks(
	path: string,
	reader: InputReader = processReader,
	maxBytes: number = inputLimits.maxInputBytes,
): AsyncGenerator<string> {
	const name = inputName(path);
	const decoder = new TextDecoder('utf-8');
	let offset = 0;
	let carry: Uint8Array = new Uint8Array(0);
	let iterator: AsyncIterator<Uint8Array | string> | undefined;
	try {
		iterator = reader.chunks(path, maxBytes)[Symbol.asyncIterator]();
		for (;;) {
			let next: IteratorResult<Uint8Array | string>;
			try {
				next = await iterator.next();
			} catch (error) {
				throw readFailure(error, name);
			}

			if (next.done) {
				break;
			}

			const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
			if (offset + chunk.length > maxBytes) {
				throw new InputError(`${name}: larger than ${mib(maxBytes)} (the limit of one input)`);
			}

			const bytes = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
			const {invalid, incomplete} = invalidUtf8At(bytes);
			// Whichever sign of binary data comes first is the one named.
			const nul = bytes.indexOf(0);
			if (nul !== -1 && (invalid === -1 || nul < invalid)) {
				throw new InputError(`${name}: binary data (a NUL byte at byte ${offset - carry.length + nul}), not YAML or JSON text`);
			}

			if (invalid !== -1) {
				throw new InputError(`${name}: not UTF-8 text (an invalid byte at byte ${offset - carry.length + invalid}` +
					'), not YAML or JSON');
			}

			offset += chunk.length;
			const whole = bytes.subarray(0, bytes.length - incomplete);
			carry = bytes.slice(bytes.length - incomplete);
			const text = decoder.decode(whole, {stream: true});
			if (text !== '') {
				yield text;
			}
		}

		if (carry.length > 0) {
			throw new InputError(`${name}: not UTF-8 text (a cut character at byte ${offset - carry.length}), not YAML or JSON`);
		}
	} finally {
		await iterator?.return?.();
	}
}

/**
 * Complete lines of the input's text (without their `\n`), then the unterminated rest if any. A line that passes
 * `maxLineChars` before its end is `onTooLong(line number)`'s error, thrown while it is still being read.
 */
export async function* textLines(
	chunks: AsyncIterable<string>,
	maxLineChars: number,
	onTooLong: (line: number) => Error,
): AsyncGenerator<{text: string; terminated: boolean}> {
	let pending = '';
	let line = 0;
	for await (const chunk of chunks) {
		// Only the new chunk is searched: a line that never ends costs one pass over its text, not one per chunk.
		let end = chunk.indexOf('\n');
		if (end === -1) {
			pending += chunk;
		} else {
			line++;
			yield {text: pending + chunk.slice(0, end), terminated: true};
			let start = end + 1;
			for (end = chunk.indexOf('\n', start); end !== -1; end = chunk.indexOf('\n', start)) {
				line++;
				yield {text: chunk.slice(start, end), terminated: true};
				start = end + 1;
			}

			pending = chunk.slice(start);
		}

		if (pending.length > maxLineChars) {
			throw onTooLong(line + 1);
		}
	}

	if (pending !== '') {
		yield {text: pending, terminated: false};
	}
}
