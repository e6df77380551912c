import '../helpers/force-color.js';
import {readFile} from 'node:fs/promises';
import {describe, expect, it} from 'vitest';
import {terminalWidth} from '../../scripts/media/cell-width.js';
import {captureAnimation, captureShot, firstFrame, renderMedia, shots} from '../../scripts/media/shots.js';
import {dark, light, screenToSvg} from '../../scripts/media/svg.js';
import type {Cell, Screen} from '../../scripts/media/capture.js';

const mediaDirectory = new URL('../../media/', import.meta.url);

describe('media/', () => {
	it('every checked-in picture is what npm run media draws now', async () => {
		const files = await renderMedia();
		const stale: string[] = [];
		for (const [name, content] of files) {
			const current = await readFile(new URL(name, mediaDirectory), 'utf8').catch(() => '(missing)');
			if (current !== content) {
				stale.push(name);
			}
		}

		expect(stale, 'out of date: run npm run media and look at the result').toEqual([]);
	});

	it('the animation starts where the story is: its first frame (what a viewer that does not animate shows) is the open tree list', async () => {
		const [first] = await captureAnimation();
		const text = first!.lines.map(line => line.map(c => c.chars || '').join('')).join('\n');
		expect(text).toMatch(firstFrame);
		// Not the queued first second, where every row of the plan is NEVER_RUN.
		expect(text).toMatch(/IN_PROGRESS|running/);
	});

	it('a shot drawn twice gives the same bytes (no real time, no randomness)', async () => {
		const shot = shots.find(s => s.name === 'tree-kudo-retrying')!;
		const [first, second] = [await captureShot(shot), await captureShot(shot)];
		expect(screenToSvg(second, dark, {title: shot.title})).toBe(screenToSvg(first, dark, {title: shot.title}));
	});
});

const cell = (chars: string, extra: Partial<Cell> = {}): Cell => ({
	chars,
	width: 1,
	fg: {mode: 'default'},
	bg: {mode: 'default'},
	bold: false,
	dim: false,
	italic: false,
	underline: false,
	inverse: false,
	...extra,
});

describe('screenToSvg', () => {
	const screen: Screen = {
		columns: 12,
		rows: 3,
		lines: [
			[cell('⏰', {width: 2}), cell('', {width: 0}), cell('a'), cell(' '), cell('<'), cell('&'), ...Array.from({length: 6}, () => cell(' '))],
			[
				cell('o', {fg: {mode: 'palette', index: 2}}),
				cell('k', {fg: {mode: 'palette', index: 2}}),
				cell(' '),
				cell('x', {inverse: true}),
				cell('y', {dim: true}),
				...Array.from({length: 7}, () => cell(' ')),
			],
			Array.from({length: 12}, () => cell(' ')),
		],
	};

	it('places runs by column, centres wide glyphs in their two cells, escapes text and drops empty rows', () => {
		const svg = screenToSvg(screen, dark, {title: 'a <title>'});
		expect(svg).toContain('text-anchor="middle">⏰</text>');
		// ⏰ covers columns 0–1: `a` starts at column 2 (14 px padding + 2 × 8.4 px).
		expect(svg).toMatch(/<text x="30.8" [^>]*>a &lt;&amp;<\/text>/);
		expect(svg).toContain('aria-label="a &lt;title&gt;"');
		// Two rows of content: 30 px title bar + 2 × 18 px + 14 px padding.
		expect(svg).toMatch(/height="80"/);
	});

	it('draws colours from the palette, inverse as swapped colours, dim halfway to the background', () => {
		const svg = screenToSvg(screen, light, {title: ''});
		expect(svg).toContain(`fill:${light.ansi[2]!}`);
		expect(svg).toMatch(new RegExp(`<rect [^>]*fill="${light.foreground}"/>`));
		expect(svg).toContain(`fill:${light.background}`);
		expect(svg).not.toContain(`fill:${dark.foreground}`);
	});
});

describe('terminalWidth', () => {
	it('gives emoji and CJK two columns, combining marks none, symbols and braille one', () => {
		expect(['⏰', '中', '✅'].map(c => terminalWidth(c.codePointAt(0)!))).toEqual([2, 2, 2]);
		expect(['✔', '✖', '↻', '◌', '⤷', '▾', '▸', '⠹', '●', '›', '…', 'a'].map(c => terminalWidth(c.codePointAt(0)!))).toEqual(Array.from({length: 12}, () => 1));
		expect(terminalWidth(0x03_01)).toBe(0);
		expect(terminalWidth(0xfe_0f)).toBe(0);
	});
});
