/**
 * The patched Ink line rewrite (patches/ink+8.0.0.patch, build/line-update.js) moves the cursor to the first
 * changed column: that column is the unchanged prefix's width in cells, summed over its graphemes as the rewrite
 * walks them, and must equal string-width's measure of the whole prefix for wide, combining and emoji text.
 */
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import xterm from '@xterm/headless';
import ansiEscapes from 'ansi-escapes';
import stringWidth from 'string-width';
import {expect, test} from 'vitest';
import {seededRandom} from '../helpers/random-strings.js';

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
	expect(written.startsWith(ansiEscapes.cursorTo(stringWidth('  ab caf')))).toBe(true);
	// Its unchanged end (` 1`) stays on screen.
	expect(written.endsWith('e\u0301')).toBe(true);
});

test('a rewrite whose wide rest would pass the last column is a whole-line write', () => {
	const next = '  ab 名前名前名前';
	// The rest, `名前名前名前` (12 cells) after 5 cells, needs 17 columns.
	expect(lineUpdate('  ab x', next, 16)).toBe(ansiEscapes.cursorTo(0) + ansiEscapes.eraseEndLine + next);
	expect(lineUpdate('  ab x', next, 17).startsWith(ansiEscapes.cursorTo(5))).toBe(true);
});

test('a line whose end did not change is rewritten only up to that end, which stays on screen', () => {
	const previous = '  ab \u001B[36m⠸\u001B[39m 0:13\u001B[2m  updated 06:06:49\u001B[22m';
	const next = '  ab \u001B[36m⠼\u001B[39m 0:14\u001B[2m  updated 06:06:49\u001B[22m';
	expect(lineUpdate(previous, next, 80)).toBe(`${ansiEscapes.cursorTo(5)}\u001B[36m⠼\u001B[39m 0:14`);
	// A stretch of another width moves the end: the rest of the line is written.
	expect(lineUpdate('  ab 9:59  x', '  ab 10:00  x', 80)).toBe(`${ansiEscapes.cursorTo(5)}${ansiEscapes.eraseEndLine}10:00  x`);
	// So is an end with other styles in effect where it starts.
	expect(lineUpdate('a\u001B[1mb c\u001B[22m', 'a\u001B[2mb c\u001B[22m', 80)).toContain(ansiEscapes.eraseEndLine);
	// A stretch that ends inside a styled run closes what it opened.
	expect(lineUpdate('  \u001B[1mab cd\u001B[22m', '  \u001B[1mxy cd\u001B[22m', 80)).toBe(`${ansiEscapes.cursorTo(2)}\u001B[1mxy\u001B[22m`);
});

const {Terminal} = xterm;

/**
 * Each cell of a two-row terminal after `writes` and a character written below them (it shows the styles the
 * writes left in effect): character, colours and attributes.
 */
async function cellsAfter(writes: readonly string[], columns: number): Promise<string> {
	const terminal = new Terminal({cols: columns, rows: 2, allowProposedApi: true});
	writes = [...writes, `${ansiEscapes.cursorTo(0, 1)}Z`];
	for (const data of writes) {
		await new Promise<void>(resolve => {
			terminal.write(data, resolve);
		});
	}

	let cells = '';
	for (const y of [0, 1]) {
		const line = terminal.buffer.active.getLine(y)!;
		for (let x = 0; x < columns; x++) {
			const cell = line.getCell(x)!;
			cells += `${cell.getChars() || ' '}${cell.getFgColor()},${cell.getBgColor()},${cell.isBold()}${cell.isDim()}${cell.isInverse()}${cell.isUnderline()}|`;
		}
	}

	terminal.dispose();
	return cells;
}

test('a rewritten line shows what a full write of it shows (random lines)', async () => {
	const random = seededRandom(11);
	const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
	const words = ['a', 'ab', ' ', '  ', '0:13', '0:14', '9:59', '10:00', '名前', '⠸', '⠼', '●', '✔', '·', 'e\u0301', '👍🏽', '│'];
	const styles = [
		['\u001B[36m', '\u001B[39m'],
		['\u001B[31m', '\u001B[39m'],
		['\u001B[32m', '\u001B[39m'],
		['\u001B[1m', '\u001B[22m'],
		['\u001B[2m', '\u001B[22m'],
		['\u001B[7m', '\u001B[27m'],
		['', ''],
	];
	type Part = {readonly style: readonly string[]; readonly text: string; readonly tail: string};
	const part = (): Part => ({style: pick(styles), text: `${pick(words)}${pick(words)}`, tail: random() < 0.5 ? pick(words) : ''});
	// A run's text and style change apart, and an unstyled tail after it, so that many lines end alike.
	const line = (parts: readonly Part[]) => parts.map(({style: [open, close], text, tail}) => `${open}${text}${close}${tail}`).join('');
	const change = (p: Part): Part => (random() < 0.5 ? {...p, style: pick(styles)} : {...p, text: `${pick(words)}${pick(words)}`});

	for (let i = 0; i < 400; i++) {
		const parts = Array.from({length: 3 + Math.floor(random() * 5)}, part);
		const changed = [...parts];
		const at = Math.floor(random() * parts.length);
		changed[at] = change(changed[at]!);
		if (random() < 0.3) {
			const other = Math.floor(random() * parts.length);
			changed[other] = change(changed[other]!);
		}

		const previous = line(parts);
		const next = line(changed);
		const columns = 60;
		const updated = await cellsAfter([ansiEscapes.cursorTo(0) + previous, lineUpdate(previous, next, columns)], columns);
		expect(updated, JSON.stringify([previous, next])).toBe(await cellsAfter([ansiEscapes.cursorTo(0) + next], columns));
	}
});
