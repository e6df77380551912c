/**
 * The patched Ink line rewrite (patches/ink+8.0.0.patch, build/line-update.js) moves the cursor to the first
 * changed column: that column is the unchanged prefix's width in cells, summed over its graphemes as the rewrite
 * walks them, and must equal string-width's measure of the whole prefix for wide, combining and emoji text.
 */
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import ansiEscapes from 'ansi-escapes';
import stringWidth from 'string-width';
import {expect, test} from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
// Ink exports only its entry point: the module is loaded by its file.
const {default: lineUpdate} = (await import(pathToFileURL(path.join(root, 'node_modules/ink/build/line-update.js')).href)) as {default: (previous: string, next: string, columns?: number) => string};

test.each([
	['ASCII', '  KIND  name  1:00', '  KIND  name  1:01'],
	['a glyph in front', '› ▾ Instance  big  ● running  1:00', '› ▾ Instance  big  ● running  1:01'],
	['wide characters', '  名前 テスト  ● 1:00', '  名前 テスト  ● 1:01'],
	['combining marks and emoji', '  cafe\u0301 👍🏽 👩‍👩‍👧  1:00', '  cafe\u0301 👍🏽 👩‍👩‍👧  1:01'],
	['styles', '\u001B[1m› \u001B[22m▾ 名前 \u001B[32m●\u001B[39m 1:00', '\u001B[1m› \u001B[22m▾ 名前 \u001B[32m●\u001B[39m 1:01'],
])('a changed end is rewritten from its column: %s', (_what, previous, next) => {
	const plain = next.replaceAll(/\u001B\[[\d;]*m/g, '');
	const column = stringWidth(plain.slice(0, plain.length - 1));
	const written = lineUpdate(previous, next, 80);
	expect(written.startsWith(ansiEscapes.cursorTo(column) + ansiEscapes.eraseEndLine)).toBe(true);
	expect(written.endsWith('1')).toBe(true);
});

test('a change inside a grapheme (a combining mark after an unchanged letter) is rewritten from that grapheme', () => {
	const written = lineUpdate('  ab cafe 1', '  ab cafe\u0301 1', 80);
	expect(written.startsWith(ansiEscapes.cursorTo(stringWidth('  ab caf')) + ansiEscapes.eraseEndLine)).toBe(true);
	expect(written.endsWith('e\u0301 1')).toBe(true);
});

test('a rewrite whose wide rest would pass the last column is a whole-line write', () => {
	const next = '  ab 名前名前名前';
	// The rest, `名前名前名前` (12 cells) after 5 cells, needs 17 columns.
	expect(lineUpdate('  ab x', next, 16)).toBe(ansiEscapes.cursorTo(0) + ansiEscapes.eraseEndLine + next);
	expect(lineUpdate('  ab x', next, 17).startsWith(ansiEscapes.cursorTo(5))).toBe(true);
});
