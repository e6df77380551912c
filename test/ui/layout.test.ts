import {describe, expect, test} from 'vitest';
import {computeLayout, fitHints} from '../../source/ui/layout.js';
import {listColumnWidths} from '../../source/ui/list-columns.js';
import {displayWidth} from '../../source/model/display-width.js';

const total = (l: ReturnType<typeof computeLayout>) => l.header + l.top + l.banner + l.footer + l.body + l.events + l.detail;

describe('computeLayout', () => {
	test('never more than rows - 1 lines, whatever is asked for', () => {
		for (let rows = 0; rows <= 40; rows++) {
			for (const top of [0, 1, 2]) {
				for (const banner of [false, true]) {
					for (const events of [0, 2, 5, 50]) {
						for (const [detail, bodyWanted] of [[0, undefined], [1, 3], [3, 50], [2, 0]] as const) {
							const layout = computeLayout({rows, top, banner, events, detail, bodyWanted});
							expect(total(layout)).toBeLessThanOrEqual(Math.max(0, rows - 1));
							expect(layout.events === 0 || layout.events >= 2).toBe(true);
						}
					}
				}
			}
		}
	});

	test('a roomy terminal gets everything, the body the rest', () => {
		expect(computeLayout({rows: 30, top: 2, banner: true, events: 5, detail: 1})).toEqual({header: 1, top: 2, banner: 1, footer: 1, body: 18, events: 5, detail: 1});
	});

	test('the events pane takes up to 40% of the screen, or whatever the body does not need', () => {
		expect(computeLayout({rows: 31, top: 2, banner: false, events: 50, detail: 0}).events).toBe(12);
		expect(computeLayout({rows: 31, top: 2, banner: false, events: 50, detail: 0, bodyWanted: 100}).events).toBe(12);
		// A tree of 4 rows leaves 30 - 1 - 2 - 1 - 4 = 22 lines.
		expect(computeLayout({rows: 31, top: 2, banner: false, events: 50, detail: 0, bodyWanted: 4})).toMatchObject({events: 22, body: 4});
		expect(computeLayout({rows: 31, top: 2, banner: false, events: 5, detail: 0, bodyWanted: 4}).events).toBe(5);
	});

	test('a tiny terminal keeps the header, a body line and the timeout banner first', () => {
		expect(computeLayout({rows: 4, top: 2, banner: true, events: 5, detail: 2})).toEqual({header: 1, top: 0, banner: 1, footer: 0, body: 1, events: 0, detail: 0});
		expect(computeLayout({rows: 7, top: 2, banner: false, events: 5, detail: 2})).toEqual({header: 1, top: 2, banner: 0, footer: 1, body: 2, events: 0, detail: 0});
	});
});

describe('fitHints: the footer at any width', () => {
	// ↑↓ move  ←→ fold  x all  ⏎ open  / filter  f failing only  e events  ? help  q quit
	const hints = ['↑↓ move', '←→ fold', 'x all', '⏎ open', '/ filter', 'f failing only', 'e events', '? help', 'q quit'];
	const keep = (i: number) => ['? help', 'q quit'].includes(hints[i]!);
	const line = (shown: number[]) => shown.map(i => hints[i]).join('  ');
	test.each([
		[120, '↑↓ move  ←→ fold  x all  ⏎ open  / filter  f failing only  e events  ? help  q quit'],
		[83, '↑↓ move  ←→ fold  x all  ⏎ open  / filter  f failing only  e events  ? help  q quit'],
		// 80×24: the least used hint goes whole; the footer used to end in `q …`.
		[80, '↑↓ move  ←→ fold  x all  ⏎ open  / filter  f failing only  ? help  q quit'],
		[60, '↑↓ move  ←→ fold  x all  ⏎ open  / filter  ? help  q quit'],
		[30, '↑↓ move  ? help  q quit'],
		// Never narrower than what must stay: help and quit are kept whole.
		[10, '? help  q quit'],
	])('%i columns: %s', (width, expected) => {
		const shown = fitHints(hints.map(h => displayWidth(h)), width, keep);
		expect(line(shown)).toBe(expected);
		expect(displayWidth(line(shown)) <= width || shown.every(keep)).toBe(true);
	});
});

describe('listColumnWidths: what the list gives up on a narrow terminal, what a wide one shows', () => {
	const titles = {context: 7, kind: 4, namespace: 9, name: 4, active: 6, state: 5, progress: 8, elapsed: 7, eta: 3, message: 7} as const;
	// The demo's list: two objects, a running timer, an ETA, summaries of 60 cells; names up to 40 cells.
	const natural = {context: 0, kind: 9, namespace: 9, name: 40, active: 6, state: 9, progress: 9, elapsed: 7, eta: 10, message: 60} as const;
	const used = (w: Record<string, number>) => 4 + Object.values(w).filter(n => n > 0).reduce((a, n) => a + n + 2, -2);
	test.each([
		// width, expected
		[200, {context: 0, kind: 9, namespace: 9, name: 40, active: 6, state: 9, progress: 9, elapsed: 7, eta: 10, message: 60}],
		[140, {context: 0, kind: 9, namespace: 9, name: 40, active: 6, state: 9, progress: 9, elapsed: 7, eta: 10, message: 21}],
		// No MESSAGE column: too little room for it; the name in full.
		[120, {context: 0, kind: 9, namespace: 9, name: 40, active: 6, state: 9, progress: 9, elapsed: 7, eta: 10, message: 0}],
		// Names cut to the old cap of 36, then further; PROGRESS (`3/5 steps`) is whole (it was cut to its title, `3/5 ste…`).
		[100, {context: 0, kind: 9, namespace: 9, name: 23, active: 6, state: 9, progress: 9, elapsed: 7, eta: 10, message: 0}],
		// 80×24: ACTIVE and PROGRESS go whole before the name is cut under 16; the ETA stays (it used to be cut). The
		// name gets back the cells the columns that went leave: 22, not 16 with 6 cells blank.
		[80, {context: 0, kind: 9, namespace: 9, name: 22, active: 0, state: 9, progress: 0, elapsed: 7, eta: 10, message: 0}],
		[60, {context: 0, kind: 4, namespace: 6, name: 10, active: 0, state: 9, progress: 0, elapsed: 7, eta: 10, message: 0}],
		// STATE, ELAPSED and ETA never give way; a name keeps 5 cells.
		[30, {context: 0, kind: 0, namespace: 0, name: 5, active: 0, state: 9, progress: 0, elapsed: 7, eta: 10, message: 0}],
	])('%i columns', (width, expected) => {
		const widths = listColumnWidths(natural, titles, width);
		expect(widths).toEqual(expected);
		expect(used(widths) <= width || widths.name === 5).toBe(true);
	});

	test('several contexts: CONTEXT is cut to its title before the name is; ACTIVE and PROGRESS go before CONTEXT', () => {
		const withContext = {...natural, context: 20};
		expect(listColumnWidths(withContext, titles, 110)).toMatchObject({context: 7, name: 24, active: 6, progress: 9});
		expect(listColumnWidths(withContext, titles, 90)).toMatchObject({context: 7, active: 0, progress: 0, name: 23});
	});

	test.each([
		// A name cut to 16 in the second stage is whole again once ACTIVE and PROGRESS are gone (the line has the room).
		[80, {...natural, name: 18}, {name: 18, active: 0, progress: 0}, 76],
		// PROGRESS went after ACTIVE and left room enough: ACTIVE comes back, whole.
		[83, {...natural, name: 16}, {name: 16, active: 6, progress: 0}, 82],
	])('%i columns: what a stage cut beyond need goes back', (width, given, expected, cells) => {
		const widths = listColumnWidths(given, titles, width);
		expect(widths).toMatchObject(expected);
		expect(used(widths)).toBe(cells);
	});
});
