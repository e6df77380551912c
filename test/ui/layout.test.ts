import {describe, expect, test} from 'vitest';
import {computeLayout} from '../../source/ui/layout.js';

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
