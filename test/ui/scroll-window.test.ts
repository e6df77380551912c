import {describe, expect, test} from 'vitest';
import {scrollWindow} from '../../source/ui/scroll-window.js';

/** Lines drawn: the rows plus one per marker (markers only when there is room for them). */
function lines(w: ReturnType<typeof scrollWindow>, height: number): number {
	const markers = height >= 3 ? (w.above > 0 ? 1 : 0) + (w.below > 0 ? 1 : 0) : 0;
	return w.end - w.start + markers;
}

describe('scrollWindow', () => {
	test('shows everything when it fits', () => {
		expect(scrollWindow({total: 5, height: 5, cursor: 4})).toEqual({start: 0, end: 5, above: 0, below: 0});
	});

	test('for every size and cursor: the cursor is shown and the lines fit the height', () => {
		for (let total = 0; total <= 30; total++) {
			for (let height = 1; height <= 12; height++) {
				let offset = 0;
				for (const cursor of [0, 3, total - 1, 7, 1, total - 2, 0].filter(c => c >= 0 && c < total)) {
					const w = scrollWindow({total, height, cursor, offset});
					expect(w.start).toBeLessThanOrEqual(cursor);
					expect(w.end).toBeGreaterThan(cursor);
					expect(lines(w, height)).toBeLessThanOrEqual(height);
					expect(w.above + (w.end - w.start) + w.below).toBe(total);
					offset = w.start;
				}
			}
		}
	});

	test('moves only when the cursor leaves the window', () => {
		const first = scrollWindow({total: 100, height: 10, cursor: 0});
		expect(first).toEqual({start: 0, end: 9, above: 0, below: 91});
		// Moving inside the window keeps it still.
		expect(scrollWindow({total: 100, height: 10, cursor: 8, offset: first.start}).start).toBe(0);
		// One past the bottom scrolls just enough (the "↑" marker now takes a line too).
		const next = scrollWindow({total: 100, height: 10, cursor: 9, offset: 0});
		expect(next.end).toBe(10);
		expect(next.start).toBe(2);
		// Back up inside the window: still.
		expect(scrollWindow({total: 100, height: 10, cursor: 5, offset: next.start}).start).toBe(2);
	});

	test('at the bottom the window is full, with no "more" below', () => {
		expect(scrollWindow({total: 100, height: 10, cursor: 99, offset: 0})).toEqual({start: 91, end: 100, above: 91, below: 0});
	});
});
