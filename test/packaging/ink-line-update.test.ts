/**
 * The patched Ink line rewrite (patches/ink+8.0.0.patch, build/line-update.js and build/log-update.js): a changed
 * line is written as its runs of changed cells only, each at its column with its styles opened and the pen closed
 * after; runs a few cells apart are joined when that is shorter; a run never starts or ends inside a wide
 * character; a line that got shorter is erased past its end; moves over unchanged lines are made at once. Checked
 * against a headless xterm: random lines, and random sequences of frames through Ink's incremental writer, must
 * leave the screen a full write of the last frame leaves.
 */
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import xterm from '@xterm/headless';
import ansiEscapes from 'ansi-escapes';
import stringWidth from 'string-width';
import {describe, expect, test} from 'vitest';
import {seededRandom} from '../helpers/random-strings.js';

const root = path.resolve(import.meta.dirname, '../..');
// Ink exports only its entry point: the modules are loaded by their files.
const inkModule = async <T>(file: string): Promise<T> => (await import(pathToFileURL(path.join(root, 'node_modules/ink/build', file)).href)) as T;
const {default: lineUpdate} = await inkModule<{default: (previous: string, next: string, columns?: number) => string}>('line-update.js');
type LogUpdate = ((text: string) => boolean) & {sync(text: string): void};
type Stream = {readonly isTTY: false; columns: number; write(data: string): boolean};
const {default: logUpdate} = await inkModule<{default: {create(stream: Stream, options: {incremental: boolean}): LogUpdate}}>('log-update.js');

const ESC = '\u001B';
const full = (line: string) => ansiEscapes.cursorTo(0) + ansiEscapes.eraseEndLine + line;

describe('a changed line is written as its changed runs', () => {
	test.each([
		['ASCII', '  KIND  name  1:00', '  KIND  name  1:01', `${ESC}[18G1`],
		['wide characters before the change', '  名前 テスト  ● 1:00', '  名前 テスト  ● 1:01', `${ESC}[21G1`],
		['combining marks before the change', '  cafe\u0301 名 x 1:00', '  cafe\u0301 名 x 1:01', `${ESC}[${stringWidth('  cafe\u0301 名 x 1:0') + 1}G1`],
		['a change at the first column', 'abc 1:00', 'xbc 1:00', '\rx'],
		['nothing in common', 'abc', 'xyz', '\rxyz'],
	])('%s: a move to the changed cell and the cell', (_what, previous, next, expected) => {
		expect(lineUpdate(previous, next, 80)).toBe(expected);
	});

	test('two changes far apart are two runs with a move between them; close ones are one run', () => {
		expect(lineUpdate('a 0:13 ........................ 0:13', 'a 0:14 ........................ 0:14', 80)).toBe(`${ESC}[6G4${ESC}[29C4`);
		// Two unchanged cells cost less than a move (`ESC[2C`).
		expect(lineUpdate('a 0:13 13', 'a 0:14 14', 80)).toBe(`${ESC}[6G4 14`);
		// Seven cost more than `ESC[7C`.
		expect(lineUpdate('a 0:13 .. 0:13', 'a 0:14 .. 0:14', 80)).toBe(`${ESC}[6G4${ESC}[7C4`);
	});

	test('a run is written with the styles in effect there, and the pen closed after it', () => {
		const previous = `  ab ${ESC}[36m⠸${ESC}[39m 0:13${ESC}[2m  updated 06:06:49${ESC}[22m`;
		const next = `  ab ${ESC}[36m⠼${ESC}[39m 0:14${ESC}[2m  updated 06:06:49${ESC}[22m`;
		// The spinner and the timer's last digit; the pen is closed by a reset (`ESC[m`) where that is shorter than `ESC[39m`.
		expect(lineUpdate(previous, next, 80)).toBe(`${ESC}[6G${ESC}[36m⠼${ESC}[m 0:14`);
		// A change inside a styled stretch opens its styles, all at once, and closes them.
		expect(lineUpdate(`  ${ESC}[1m${ESC}[31mab cd${ESC}[39m${ESC}[22m`, `  ${ESC}[1m${ESC}[31mab xd${ESC}[39m${ESC}[22m`, 80)).toBe(`${ESC}[6G${ESC}[1;31mx${ESC}[m`);
		// A change of style alone is a change.
		expect(lineUpdate(`a${ESC}[1mb${ESC}[22m c`, `a${ESC}[2mb${ESC}[22m c`, 80)).toBe(`${ESC}[2G${ESC}[2mb${ESC}[m`);
	});

	test('a run never starts or ends inside a wide character', () => {
		// 名 (columns 4–5) becomes `ab`: the run is both columns, and the wide character after it stays.
		expect(lineUpdate('abc 名前 x', 'abc ab前 x', 80)).toBe(`${ESC}[5Gab`);
		// `ab` becomes 名 at columns 5–6 of a line where 前 sat at 4–5: the run covers 前's columns and what follows.
		expect(lineUpdate('abc 前b x', 'abc a名 x', 80)).toBe(`${ESC}[5Ga名`);
		// 名 becomes 前 in the same style: its second cells look alike, yet the run ends after both, and the move to
		// the next run counts from there.
		expect(lineUpdate('ab 名 cdefgh 1', 'ab 前 cdefgh 2', 80)).toBe(`${ESC}[4G前${ESC}[8C2`);
	});

	test('a line that got shorter is erased past its new end, with the default pen', () => {
		expect(lineUpdate('abc defghij', 'abc', 80)).toBe(`${ESC}[4G${ESC}[K`);
		expect(lineUpdate(`abc ${ESC}[44mdef${ESC}[49m`, `abc ${ESC}[44md${ESC}[49m`, 80)).toBe(`${ESC}[6G${ESC}[K`);
		expect(lineUpdate(`ab${ESC}[44mcdef${ESC}[49m`, `ab${ESC}[44mcx${ESC}[49m`, 80)).toBe(`${ESC}[4G${ESC}[44mx${ESC}[m${ESC}[K`);
	});

	test('a change inside a grapheme (a combining mark after an unchanged letter) rewrites that grapheme', () => {
		expect(lineUpdate('  ab cafe 1', '  ab cafe\u0301 1', 80)).toBe(`${ESC}[9Ge\u0301`);
	});

	test('the whole line is written when a column could be wrong', () => {
		// Wider than the terminal: it wraps.
		expect(lineUpdate('  ab x', '  ab 名前名前名前', 16)).toBe(full('  ab 名前名前名前'));
		expect(lineUpdate('  ab x', '  ab 名前名前名前', 17)).toBe(`${ESC}[6G名前名前名前`);
		// Controls other than SGR (a link, a tab).
		expect(lineUpdate('ab c', `ab ${ESC}]8;;https://example.com${ESC}\\c${ESC}]8;;${ESC}\\`, 80)).toBe(full(`ab ${ESC}]8;;https://example.com${ESC}\\c${ESC}]8;;${ESC}\\`));
		expect(lineUpdate('ab c', 'ab\tc', 80)).toBe(full('ab\tc'));
		// An emoji takes one or two columns depending on the terminal (xterm.js's default tables: one), a sequence
		// (a skin tone, VS16, joined, a flag) up to four.
		for (const emoji of ['😀', '👍🏽', '⚠\uFE0F', '👩\u200D👩\u200D👧', '🇩🇪']) {
			expect(lineUpdate(`a ${emoji} b 1:00`, `a ${emoji} b 1:01`, 80)).toBe(full(`a ${emoji} b 1:01`));
		}

		// A line that leaves a style open: a full write leaves the pen so.
		expect(lineUpdate('ab c', `ab ${ESC}[1mc`, 80)).toBe(full(`ab ${ESC}[1mc`));
	});
});

const {Terminal} = xterm;
type Screen = InstanceType<typeof Terminal>;

const written = async (terminal: Screen, data: string) => new Promise<void>(resolve => {
	terminal.write(data, resolve);
});

/** Every cell (character, width, colours, attributes) and the cursor's row; then the pen left in effect (a Z written at the last row). */
async function look(terminal: Screen): Promise<string> {
	const buffer = terminal.buffer.active;
	let cells = `cursor row ${buffer.cursorY}\n`;
	await written(terminal, `${ESC}[${terminal.rows};1HZ`);
	for (let y = 0; y < terminal.rows; y++) {
		const line = buffer.getLine(buffer.viewportY + y)!;
		for (let x = 0; x < terminal.cols; x++) {
			const c = line.getCell(x)!;
			cells += `${c.getChars() || ' '}${c.getWidth()}${c.getFgColorMode()}:${c.getFgColor()},${c.getBgColorMode()}:${c.getBgColor()},`
				+ `${[c.isBold(), c.isDim(), c.isItalic(), c.isUnderline(), c.isInverse(), c.isStrikethrough()].map(Number).join('')}|`;
		}

		cells += '\n';
	}

	return cells;
}

const words = ['a', 'ab', 'xyz', ' ', '  ', '0:13', '0:14', '9:59', '10:00', '名前', 'テ', '⠸', '⠼', '●', '✔', '·', 'e\u0301', '😀', '👍🏽', '│', '…'];
const styles = [
	['36m', '39m'],
	['31m', '39m'],
	['38;5;208m', '39m'],
	['38;2;10;200;30m', '39m'],
	['44m', '49m'],
	['48;5;238m', '49m'],
	['1m', '22m'],
	['2m', '22m'],
	['3m', '23m'],
	['4m', '24m'],
	['7m', '27m'],
	['9m', '29m'],
	['1;33m', '39;22m'],
	['', ''],
	['', ''],
].map(([open, close]) => [open ? `${ESC}[${open}` : '', close ? `${ESC}[${close}` : ''] as const);

type Part = {readonly style: readonly [string, string]; readonly text: string};

function generator(seed: number) {
	const random = seededRandom(seed);
	const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
	const part = (): Part => ({style: pick(styles), text: Array.from({length: 1 + Math.floor(random() * 3)}, () => pick(words)).join('')});
	// A line as Ink writes one: styles closed where each part ends, never wider than the terminal.
	const render = (parts: readonly Part[], columns: number) => {
		let line = '';
		let width = 0;
		for (const {style: [open, close], text} of parts) {
			const w = stringWidth(text);
			if (width + w > columns) {
				break;
			}

			width += w;
			line += `${open}${text}${close}`;
		}

		return line;
	};

	const changed = (parts: readonly Part[]): Part[] => {
		const next = [...parts];
		const what = random();
		const at = Math.floor(random() * Math.max(1, next.length));
		if (what < 0.35 && next.length > 0) {
			next[at] = {...next[at]!, text: part().text};
		} else if (what < 0.55 && next.length > 0) {
			next[at] = {...next[at]!, style: pick(styles)};
		} else if (what < 0.7) {
			next.splice(at, random() < 0.5 ? 0 : 1, part());
		} else if (what < 0.85) {
			next.length = Math.floor(random() * next.length);
		} else if (what < 0.95) {
			next.push(...Array.from({length: 1 + Math.floor(random() * 6)}, part));
		} else {
			return Array.from({length: Math.floor(random() * 8)}, part);
		}

		return next;
	};

	return {random, part, render, changed};
}

test('a rewritten line shows what a full write of it shows (random lines)', async () => {
	const {random, part, render, changed} = generator(11);
	const columns = 40;
	for (let i = 0; i < 600; i++) {
		const parts = Array.from({length: Math.floor(random() * 9)}, part);
		const previous = render(parts, columns);
		const next = render(random() < 0.3 ? changed(changed(parts)) : changed(parts), columns);
		const update = new Terminal({cols: columns, rows: 2, allowProposedApi: true});
		await written(update, full(previous));
		await written(update, lineUpdate(previous, next, columns));
		const fresh = new Terminal({cols: columns, rows: 2, allowProposedApi: true});
		await written(fresh, full(next));
		// The cursor's column is not compared: every line's write starts with a move to its own column.
		expect((await look(update)).replace(/^.*\n/, ''), JSON.stringify([previous, next])).toBe((await look(fresh)).replace(/^.*\n/, ''));
		update.dispose();
		fresh.dispose();
	}
});

describe('frames through Ink\'s incremental writer', () => {
	test.each(Array.from({length: 40}, (_, i) => i + 1))('random frames end as a full write of the last one shows them (seed %i)', async seed => {
		const {random, part, render, changed} = generator(seed * 7919);
		const columns = 24 + Math.floor(random() * 40);
		const height = 3 + Math.floor(random() * 8);
		// `-o tui` fills the screen and ends without a newline; an inline frame ends with one.
		const trailingNewline = random() < 0.3;
		const rows = height + 3;
		const terminal = new Terminal({cols: columns, rows, allowProposedApi: true, convertEol: true});
		let out = '';
		const stream: Stream = {
			isTTY: false,
			columns,
			write(data) {
				out += data;
				return true;
			},
		};
		const log = logUpdate.create(stream, {incremental: true});
		let lines = Array.from({length: height}, () => Array.from({length: Math.floor(random() * 8)}, part));
		const frame = () => lines.map(parts => render(parts, columns)).join('\n') + (trailingNewline ? '\n' : '');
		let text = frame();
		log(text);
		let fullBytes = text.length;
		for (let f = 0; f < 40; f++) {
			lines = lines.map(parts => (random() < 0.4 ? changed(parts) : parts));
			// Now and then a frame of another height (those are written whole).
			if (random() < 0.05) {
				lines = random() < 0.5 && lines.length > 1 ? lines.slice(0, -1) : [...lines, [part()]];
			}

			text = frame();
			log(text);
			fullBytes += text.length;
		}

		await written(terminal, out);
		const fresh = new Terminal({cols: columns, rows, allowProposedApi: true, convertEol: true});
		const freshLog = logUpdate.create({isTTY: false, columns, write: data => {
			void fresh.write(data);
			return true;
		}}, {incremental: true});
		freshLog(text);
		await written(fresh, '');
		expect(await look(terminal), JSON.stringify(text)).toBe(await look(fresh));
		// Fewer bytes than writing each frame whole.
		expect(out.length).toBeLessThan(fullBytes);
		terminal.dispose();
		fresh.dispose();
	});
});

test('moves over unchanged lines are made at once', () => {
	let out = '';
	const log = logUpdate.create({isTTY: false, columns: 40, write(data) {
		out += data;
		return true;
	}}, {incremental: true});
	const frame = (changed: number) => Array.from({length: 12}, (_, i) => `row ${i} ${i === changed ? 'b' : 'a'}`).join('\n');
	log(frame(-1));
	out = '';
	log(frame(5));
	// From the last row up to row 5, its one cell, then down to the last row.
	expect(out).toBe(`${ESC}[6A${ESC}[7Gb\n${ESC}[5E`);
});
