/**
 * displayWidth measures a non-ASCII text with string-width once, then looks it up (a row's icons and glyphs come
 * again on every render of the row): counted through a spy on string-width, not timed.
 */
import {beforeEach, expect, test, vi} from 'vitest';

const calls: string[] = [];
vi.mock('string-width', async original => {
	const real = await original<typeof import('string-width')>();
	return {
		default(text: string) {
			calls.push(text);
			return real.default(text);
		},
	};
});

const {displayWidth} = await import('../../source/model/display-width.js');

beforeEach(() => {
	calls.length = 0;
});

test('the same non-ASCII text is measured once, with the same answer', () => {
	const texts = ['✔ done', '● running', '中文', '›', 'e\u0301'];
	const first = texts.map(text => displayWidth(text));
	for (let round = 0; round < 50; round++) {
		expect(texts.map(text => displayWidth(text))).toEqual(first);
	}

	expect(first).toEqual([6, 9, 4, 1, 1]);
	expect(calls).toEqual(texts);
});

test('printable ASCII is never handed to string-width', () => {
	expect(displayWidth('a-probe-01  42%')).toBe(15);
	expect(calls).toEqual([]);
});

test('the cache is bounded: past its size it starts over and still answers right', () => {
	for (let i = 0; i < 10_000; i++) {
		expect(displayWidth(`✔ ${i}`)).toBe(2 + String(i).length);
	}

	expect(calls).toHaveLength(10_000);
	// The last texts are still kept after the restarts.
	displayWidth('✔ 9999');
	expect(calls).toHaveLength(10_000);
});
