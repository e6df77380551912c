import {describe, expect, test} from 'vitest';
import {
	isForbiddenCodePoint,
	lineBreakMarker,
	maxMessageLength,
	sanitizeLine,
	sanitizeText,
} from '../../source/model/sanitize.js';
import {hostileString, seededRandom} from '../helpers/random-strings.js';

const ESC = '\u001B';
const BEL = '\u0007';

/** Every code point of `s` that must never reach the terminal. */
function forbiddenIn(s: string, mode: 'text' | 'line'): number[] {
	const bad: number[] = [];
	for (let i = 0; i < s.length; i++) {
		const cp = s.codePointAt(i)!;
		if (cp > 0xff_ff) {
			i++;
			continue;
		}

		if (isForbiddenCodePoint(cp) || (mode === 'line' && (cp === 0x0a || cp === 0x09)) || cp === 0x2028 || cp === 0x2029) {
			bad.push(cp);
		}
	}

	return bad;
}

describe('hostile strings', () => {
	const cases: Array<[string, string, string]> = [
		['OSC 52 clipboard write', `copy${ESC}]52;c;cm0gLXJmIH4=${BEL}me`, 'copyme'],
		['OSC 52 ended by ST', `a${ESC}]52;c;cm0gLXJmIH4=${ESC}\\b`, 'ab'],
		['OSC 0 window title', `${ESC}]0;you have been pwned${BEL}deploy`, 'deploy'],
		['OSC 8 hyperlink keeps only the text', `${ESC}]8;;https://evil.example/${ESC}\\click${ESC}]8;;${ESC}\\`, 'click'],
		['CSI 2J clear screen', `before${ESC}[2J${ESC}[Hafter`, 'beforeafter'],
		['CSI SGR colours', `${ESC}[1;31mred${ESC}[0m`, 'red'],
		['CSI private mode (alt screen)', `${ESC}[?1049hx`, 'x'],
		['CR overwrite', 'ok\rFAILED', 'okFAILED'],
		['backspaces', 'rm -rf /\b\b\b\b\b\b\b\bls', 'rm -rf /ls'],
		['BEL', `ding${BEL}dong`, 'dingdong'],
		['U+202E right-to-left override', 'invoice\u202Efdp.exe', 'invoicefdp.exe'],
		['bidi isolates and marks', 'a\u2066b\u2069c\u200Ed\u200Fe\u061Cf', 'abcdef'],
		['zero-width and BOM', '\uFEFFz\u200Bw\u200Cs\u200Dp\u2060', 'zwsp'],
		['8-bit CSI with parameters', 'x\u009B2Jy\u009B1;31mz', 'xyz'],
		['8-bit OSC', 'x\u009D0;title\u0007y', 'xy'],
		['other C1 controls', 'a\u0085b\u008Dc\u0080d', 'abcd'],
		['DCS to ST', `a${ESC}P1$r0m${ESC}\\b`, 'ab'],
		['APC, PM and SOS to ST', `a${ESC}_x${ESC}\\b${ESC}^y${ESC}\\c${ESC}Xz${ESC}\\d`, 'abcd'],
		['two-character ESC sequences', `a${ESC}7b${ESC}8c${ESC}(Bd${ESC}ce`, 'abcde'],
		['unterminated OSC swallows the rest', `visible${ESC}]0;title never ends`, 'visible'],
		['lone ESC at the end', `end${ESC}`, 'end'],
		['DEL and NUL', 'a\u007Fb\u0000c', 'abc'],
		['lone surrogate becomes U+FFFD', 'a\uD83Db', 'a\uFFFDb'],
		['astral characters survive', 'ok 😀 名前', 'ok 😀 名前'],
	];

	test.each(cases)('%s', (_name, input, expected) => {
		expect(sanitizeText(input)).toBe(expected);
		expect(sanitizeLine(input)).toBe(expected);
	});

	test('text keeps newlines and tabs; CRLF becomes LF', () => {
		expect(sanitizeText('a\tb\r\nc\n\nd')).toBe('a\tb\nc\n\nd');
	});

	test('line turns each run of line breaks into one visible marker and drops them at the ends', () => {
		expect(sanitizeLine('\nfirst\r\n\nsecond\u2028third\n')).toBe(`first${lineBreakMarker}second${lineBreakMarker}third`);
		expect(sanitizeLine('a\tb')).toBe('a b');
	});

	test('non-strings', () => {
		expect(sanitizeText(undefined)).toBe('');
		expect(sanitizeText(null)).toBe('');
		expect(sanitizeText({toString: () => `${ESC}]0;x${BEL}`})).toBe('');
		expect(sanitizeText(['a'])).toBe('');
		expect(sanitizeLine(42)).toBe('42');
		expect(sanitizeLine(1.5)).toBe('1.5');
		expect(sanitizeLine(true)).toBe('true');
	});

	test('long strings are cut with an ellipsis, counting code points', () => {
		const long = 'x'.repeat(5000);
		const out = sanitizeText(long);
		expect([...out]).toHaveLength(maxMessageLength);
		expect(out.endsWith('…')).toBe(true);
		expect(sanitizeLine('😀'.repeat(10), 5)).toBe('😀😀😀😀…');
		expect(sanitizeLine('abcde', 5)).toBe('abcde');
		expect(sanitizeLine('abcdef', 5)).toBe('abcd…');
		expect(sanitizeLine('abc', 0)).toBe('');
	});

	test('invisible characters do not count towards the cap', () => {
		expect(sanitizeLine(`abcde${ESC}[2J\u200B${ESC}]0;t${BEL}`, 5)).toBe('abcde');
		expect(sanitizeLine('abcde\n\n', 5)).toBe('abcde');
	});

	test('a cut never ends inside the line-break marker', () => {
		expect(sanitizeLine('abc\ndef', 5)).toBe('abc…');
	});
});

describe('property: random hostile input', () => {
	const random = seededRandom(20_260_601);
	const samples = Array.from({length: 3000}, () => hostileString(random));

	test('output never contains a forbidden character, and sanitizing twice changes nothing', () => {
		for (const [i, input] of samples.entries()) {
			for (const max of [maxMessageLength, 12]) {
				const text = sanitizeText(input, max);
				const line = sanitizeLine(input, max);
				const context = `sample ${i} (max ${max}): ${JSON.stringify(input)}`;
				expect(forbiddenIn(text, 'text'), context).toEqual([]);
				expect(forbiddenIn(line, 'line'), context).toEqual([]);
				expect(text.includes(ESC), context).toBe(false);
				expect([...text].length, context).toBeLessThanOrEqual(max);
				expect([...line].length, context).toBeLessThanOrEqual(max);
				expect(sanitizeText(text, max), context).toBe(text);
				expect(sanitizeLine(line, max), context).toBe(line);
			}
		}
	});

	test('complete escape sequences disappear without touching the text around them', () => {
		const sequences = [
			`${ESC}[2J`,
			`${ESC}[38;5;196m`,
			`${ESC}]0;title${BEL}`,
			`${ESC}]52;c;AAAA${ESC}\\`,
			`${ESC}P+q${ESC}\\`,
			'\u009B1;2H',
			`${ESC}(0`,
		];
		const words = ['alpha', 'beta gamma', '名前', '😀', '[brackets]', '7', ''];
		for (const a of words) {
			for (const b of words) {
				for (const q of sequences) {
					expect(sanitizeLine(a + q + b)).toBe(a + b);
				}
			}
		}
	});
});

describe('invisible characters, by Unicode category over the whole code space', () => {
	const invisibleCategory = /^[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]$/u;
	const variationSelector = (cp: number) => (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef) || (cp >= 0x180b && cp <= 0x180d) || cp === 0x180f;

	test('no control, format, ignorable or line-separator character survives; everything else does', () => {
		const wrong: string[] = [];
		for (let cp = 0; cp <= 0x10_ff_ff; cp++) {
			const ch = String.fromCodePoint(cp);
			const line = sanitizeLine(ch);
			const text = sanitizeText(ch);
			let expectedLine: string;
			let expectedText: string;
			if (cp === 0x09) {
				[expectedLine, expectedText] = [' ', '\t'];
			} else if (cp === 0x0a || cp === 0x20_28 || cp === 0x20_29) {
				[expectedLine, expectedText] = ['', '\n'];
			} else if (cp >= 0xd8_00 && cp <= 0xdf_ff) {
				[expectedLine, expectedText] = ['\uFFFD', '\uFFFD'];
			} else if (invisibleCategory.test(ch) || variationSelector(cp)) {
				// A variation selector with nothing before it stands alone.
				[expectedLine, expectedText] = ['', ''];
			} else {
				[expectedLine, expectedText] = [ch, ch];
			}

			if (line !== expectedLine || text !== expectedText) {
				wrong.push(`U+${cp.toString(16).toUpperCase().padStart(4, '0')}`);
			}
		}

		expect(wrong).toEqual([]);
	});

	test.each([
		['soft hyphen', 'co\u00ADde', 'code'],
		['deprecated format characters U+206A–206F', 'a\u206Ab\u206Fc', 'abc'],
		['tag characters', 'flag\u{E0001}\u{E0067}\u{E007F}', 'flag'],
		['interlinear annotations', 'a\uFFF9b\uFFFAc\uFFFBd', 'abcd'],
		['Mongolian vowel separator', 'a\u180Eb', 'ab'],
		['Hangul fillers', 'a\u115Fb\u1160c\u3164d\uFFA0e', 'abcde'],
		['combining grapheme joiner', 'a\u034Fb', 'ab'],
		['a variation selector after a visible character stays', 'love \u2764\uFE0F', 'love \u2764\uFE0F'],
		['variation selectors standing alone go', '\uFE0Fa \uFE0F\u{E0100}b\uFE0E\uFE0F', 'a b\uFE0E'],
	])('%s', (_name, input, expected) => {
		expect(sanitizeLine(input)).toBe(expected);
		expect(sanitizeText(input)).toBe(expected);
	});

	test('a variation selector after a line break stands alone', () => {
		expect(sanitizeLine('a\n\uFE0Fb')).toBe(`a${lineBreakMarker}b`);
		expect(sanitizeText('a\n\uFE0Fb')).toBe('a\nb');
	});
});
