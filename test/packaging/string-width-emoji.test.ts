/**
 * The patched string-width (patches/string-width+8.3.0.patch) builds its `\p{RGI_Emoji}` regex only when a
 * cluster holds an Emoji_Presentation character or U+FE0F: the widths must be exactly the unpatched module's. The
 * unpatched module is the installed file with the patch taken back, loaded from the project's .cache.
 */
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {expect, test} from 'vitest';
import {applyHunks, patchFiles} from '../../scripts/patch-deps.mjs';

const root = path.resolve(import.meta.dirname, '../..');
type StringWidth = (text: string) => number;

const patch = patchFiles().find(p => p.name === 'string-width+8.3.0.patch')!;
const file = patch.files.find(f => f.path === 'node_modules/string-width/index.js')!;
const installed = path.join(root, file.path);
const original = applyHunks(readFileSync(installed, 'utf8'), file.hunks, {reverse: true}).text;
// Under the project, so its imports (strip-ansi, get-east-asian-width) resolve from node_modules.
const originalPath = path.join(root, '.cache/test/string-width-original.mjs');
mkdirSync(path.dirname(originalPath), {recursive: true});
writeFileSync(originalPath, original);
const {default: unpatched} = (await import(pathToFileURL(originalPath).href)) as {default: StringWidth};
const {default: patched} = (await import(pathToFileURL(installed).href)) as {default: StringWidth};

test('the patch is what is installed, and taking it back gives another module', () => {
	expect(original).not.toBe(readFileSync(installed, 'utf8'));
	expect(original).toContain('/^\\p{RGI_Emoji}$/v');
});

test('every code point alone, and followed by U+FE0F (VS16), measures as before', () => {
	const differ: string[] = [];
	// The Basic Multilingual Plane, and the planes' blocks with emoji and tags.
	const codes = [[0, 0xFF_FF], [0x1_F0_00, 0x1_FB_FF], [0xE_00_00, 0xE_00_7F]].flatMap(([from, to]) => Array.from({length: to! - from! + 1}, (_, i) => from! + i));
	for (const code of codes) {
		if (code >= 0xD8_00 && code <= 0xDF_FF) {
			continue;
		}

		for (const text of [String.fromCodePoint(code), `${String.fromCodePoint(code)}\uFE0F`]) {
			if (patched(text) !== unpatched(text)) {
				differ.push(text);
			}
		}
	}

	expect(differ).toEqual([]);
});

test('emoji sequences measure as before: keycaps, flags, skin tones, tags, ZWJ families', () => {
	const people = ['👩', '👨', '🧑', '👧', '👦', '🏃', '🧗', '👁', '🏳', '🏴', '❤', '🤝'];
	const modifiers = ['🏻', '🏼', '🏽', '🏾', '🏿'];
	const objects = ['💻', '🔬', '🚀', '🌈', '⚧', '🔥', '🦰', '🗨', '☠', '♂', '♀'];
	const texts: string[] = [];
	for (const key of '0123456789#*') {
		texts.push(`${key}\u20E3`, `${key}\uFE0F\u20E3`);
	}

	for (let a = 0x1_F1_E6; a <= 0x1_F1_FF; a++) {
		for (let b = 0x1_F1_E6; b <= 0x1_F1_FF; b++) {
			texts.push(String.fromCodePoint(a, b));
		}
	}

	for (const tag of ['gbeng', 'gbsct', 'gbwls', 'usca', 'xx']) {
		texts.push(`🏴${[...tag].map(c => String.fromCodePoint(0xE_00_00 + c.codePointAt(0)!)).join('')}\u{E007F}`);
	}

	for (const person of people) {
		for (const modifier of ['', ...modifiers]) {
			texts.push(`${person}${modifier}`);
			for (const other of [...people, ...objects]) {
				texts.push(`${person}${modifier}\u200D${other}`, `${person}${modifier}\uFE0F\u200D${other}\uFE0F`, `${person}\u200D${other}\u200D${people[0]!}`);
			}
		}
	}

	const differ = texts.filter(text => patched(text) !== unpatched(text) || patched(`x ${text} y`) !== unpatched(`x ${text} y`));
	expect(differ).toEqual([]);
	// Some of them are RGI emoji (two cells) and some are not: both ways were taken.
	expect(new Set(texts.map(text => patched(text))).size).toBeGreaterThan(1);
});

test('text mostly ASCII measures as before: the stretches around other characters, with their ASCII neighbours', () => {
	// Characters whose clusters reach over a neighbour: combining and enclosing marks, ZWJ, VS16, keycaps, regional
	// indicators (pairs), emoji modifiers, Hangul jamo (L V T), Prepend (Arabic number sign, Kaithi), spacing marks,
	// an Indic conjunct (virama), halfwidth forms, controls (CR LF, tab), ESC (stripped with what follows), format
	// characters; with ASCII letters, digits, `#`, `*` and spaces around them.
	const others = [
		...['\u0301', '\u20E3', '\u200D', '\uFE0F', '🇦', '🇧', '👩', '🏽', '❤', '\u1100', '\u1161', '\u11A8', '가', '\u0600', '\u{110BD}', '\u0903'],
		...['क', '\u094D', 'ष', 'ﾞ', 'ｶ', '中', '\r', '\n', '\t', '\u001B[31m', '\u001B[m', '\u200B', '\u00AD', '✔', '…', 'é'],
	];
	const ascii = ['a', 'Z', '0', '1', '#', '*', ' ', '[', 'm', '-'];
	// mulberry32: the same texts every run.
	let seed = 23;
	const random = (n: number) => {
		seed = Math.trunc(seed + 0x6D_2B_79_F5);
		let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) % n;
	};

	const differ: string[] = [];
	for (let round = 0; round < 20_000; round++) {
		let text = '';
		const length = 1 + random(14);
		for (let i = 0; i < length; i++) {
			text += random(2) === 0 ? others[random(others.length)]! : ascii[random(ascii.length)]!.repeat(1 + random(3));
		}

		if (patched(text) !== unpatched(text)) {
			differ.push(text);
		}
	}

	expect(differ).toEqual([]);
	// A row of the list: one icon among 150 ASCII characters.
	const row = `› ▸ default  ActionSet  bench  a-probe-01  ✔ Complete  ${'x'.repeat(100)}`;
	expect(patched(row)).toBe(unpatched(row));
});
