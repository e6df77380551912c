/**
 * A small seeded generator of hostile strings for property tests (no dependency): printable text mixed with
 * C0/C1 controls, DEL, complete and truncated escape sequences, bidi and zero-width characters, astral
 * characters and lone surrogates. Seeded so a failure names the seed that reproduces it.
 */

export {seededRandom} from '../../source/scenarios/seeded-random.js';

const escapeFragments = [
	'\u001B[2J',
	'\u001B[1;31m',
	'\u001B[?1049h',
	'\u001B[',
	'\u001B]0;pwned\u0007',
	'\u001B]52;c;SGVsbG8=\u0007',
	'\u001B]8;;https://evil.example\u001B\\',
	'\u001B]8;;\u001B\\',
	'\u001B]',
	'\u001BP1$r\u001B\\',
	'\u001B_apc\u001B\\',
	'\u001B^pm\u009C',
	'\u001BXsos',
	'\u001B(B',
	'\u001B7',
	'\u001Bc',
	'\u001B',
	'\u009B2J',
	'\u009B31m',
	'\u009D0;title\u0007',
	'\u0090dcs\u009C',
	'\r',
	'\r\n',
	'\b',
	'\u0007',
	'\u007F',
	'\t',
	'\n',
	'\u2028',
];

const singles = [
	0x00, 0x01, 0x08, 0x0b, 0x0c, 0x0e, 0x1a, 0x1c, 0x1f, 0x7f, 0x80, 0x85, 0x8d, 0x9b, 0x9c, 0x9f, 0x202a, 0x202b, 0x202c,
	0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c, 0x200b, 0x200c, 0x200d, 0x2060, 0xfeff,
];

const printable = [
	'a',
	'Z',
	'0',
	' ',
	'-',
	'/',
	'[',
	']',
	'\\',
	';',
	'é',
	'ß',
	'名',
	'⏎',
	'…',
	'😀',
	'👩',
	'ع',
];

/** One random string of up to `maxParts` pieces. */
export function hostileString(random: () => number, maxParts = 24): string {
	const parts: string[] = [];
	const n = Math.floor(random() * (maxParts + 1));
	for (let i = 0; i < n; i++) {
		const r = random();
		if (r < 0.35) {
			parts.push(printable[Math.floor(random() * printable.length)]!);
		} else if (r < 0.6) {
			parts.push(escapeFragments[Math.floor(random() * escapeFragments.length)]!);
		} else if (r < 0.8) {
			parts.push(String.fromCodePoint(singles[Math.floor(random() * singles.length)]!));
		} else if (r < 0.9) {
			// Lone surrogates: half of a pair, either half.
			parts.push(String.fromCharCode(random() < 0.5 ? 0xd8_3d : 0xde_00));
		} else {
			// Any BMP code unit at all.
			parts.push(String.fromCharCode(Math.floor(random() * 0x1_00_00)));
		}
	}

	return parts.join('');
}
