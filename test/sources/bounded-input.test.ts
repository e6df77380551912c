/** The reader under -f and replay: chunks, binary refused early, the whole input capped while it streams. */
import {describe, expect, it} from 'vitest';
import {InputError} from '../../source/core/errors.js';
import {invalidUtf8At, textChunks, type InputReader} from '../../source/sources/bounded-input.js';

/** A reader whose input is `chunks`, then `forever` repeated without end; counts what was taken. */
function reader(chunks: ReadonlyArray<Uint8Array | string>, forever?: string): InputReader & {taken: number} {
	const r = {
		taken: 0,
		async *chunks() {
			for (const c of chunks) {
				r.taken++;
				yield c;
			}

			while (forever !== undefined) {
				r.taken++;
				yield forever;
			}
		},
	};
	return r;
}

async function read(source: InputReader, maxBytes?: number): Promise<string> {
	let text = '';
	for await (const chunk of textChunks('in.yaml', source, maxBytes)) {
		text += chunk;
	}

	return text;
}

async function refusal(source: InputReader, maxBytes?: number): Promise<string> {
	try {
		await read(source, maxBytes);
	} catch (error) {
		expect(error).toBeInstanceOf(InputError);
		return (error as Error).message;
	}

	throw new Error('expected a refusal');
}

describe('textChunks', () => {
	it('decodes UTF-8 cut anywhere between chunks, and drops a BOM', async () => {
		const bytes = Buffer.from('\uFEFFname: café 🚀 ü\n');
		const pieces = Array.from(bytes, b => Uint8Array.of(b));
		expect(await read(reader(pieces))).toBe('name: café 🚀 ü\n');
	});

	it('caps a stream that never ends, naming the limit, after reading just past it', async () => {
		const source = reader([], 'a: b\n'.repeat(13_107));
		expect(await refusal(source, 1024 * 1024)).toBe('in.yaml: larger than 1 MiB (the limit of one input)');
		expect(source.taken).toBe(17);
	});

	it('refuses binary at the first NUL or invalid byte, whichever comes first, without reading on', async () => {
		const nul = reader(['kind: Instance\n', Buffer.from([0x61, 0, 0x62])], '\u0000');
		expect(await refusal(nul)).toBe('in.yaml: binary data (a NUL byte at byte 16), not YAML or JSON text');
		expect(nul.taken).toBe(2);
		expect(await refusal(reader([Buffer.from([0x61, 0xff, 0])]))).toBe('in.yaml: not UTF-8 text (an invalid byte at byte 1), not YAML or JSON');
		expect(await refusal(reader([Buffer.from([0x61, 0xe2, 0x82])]))).toBe('in.yaml: not UTF-8 text (a cut character at byte 1), not YAML or JSON');
	});
});

describe('invalidUtf8At', () => {
	it('finds overlong forms, surrogates, code points past U+10FFFF and stray continuation bytes', () => {
		for (const bad of [[0xc0, 0x80], [0xe0, 0x80, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0x80], [0xf8, 0x80]]) {
			expect(invalidUtf8At(Uint8Array.from([0x41, ...bad])).invalid, bad.join(',')).toBe(1);
		}

		expect(invalidUtf8At(Buffer.from('plain ascii, é, 中, 🚀'))).toEqual({invalid: -1, incomplete: 0});
		expect(invalidUtf8At(Uint8Array.from([0x41, 0xf0, 0x9f]))).toEqual({invalid: -1, incomplete: 2});
	});
});
