/**
 * The tree's column widths on a narrow and a wide line (tree-columns.ts): a status's reason and names give way,
 * the status word and the timer never do; with room every name is whole.
 */
import {describe, expect, test} from 'vitest';
import {treeColumnWidths, type TreeNatural} from '../../source/ui/tree-columns.js';

/** Cells a row of these widths takes before its message (the cursor, and two cells before each column). */
const used = (w: {name: number; strategy: number; status: number; elapsed: number}) =>
	2 + w.name + (w.strategy > 0 ? 2 + w.strategy : 0) + 2 + w.status + (w.elapsed > 0 ? 2 + w.elapsed : 0);

// A failed Kanister restore in --ascii: `      -> [..] StartupApplication | always runs` is the widest name (46 cells), one
// row's status is `pending (running per progress)` (30), the widest word `complete` (8), timers `0:19`.
const restore: TreeNatural = {name: 46, strategy: 0, status: 30, word: 8, elapsed: 4, trailing: true};
// A KUDO plan: strategies, IN_PROGRESS, a spinner in front of the timer.
const kudo: TreeNatural = {name: 40, strategy: 8, status: 11, word: 11, elapsed: 6, trailing: true};

describe('treeColumnWidths', () => {
	test.each<[string, TreeNatural, number, {name: number; strategy: number; status: number; elapsed: number}]>([
		// The old widths cut the name to 30 here (`RestoreFromObjec...`) to keep the reason whole: the reason goes first,
		// the word stays and a message still has 10 cells.
		['80 columns: the reason gives way, every name whole', restore, 80, {name: 46, strategy: 0, status: 12, elapsed: 4}],
		['200 columns: everything whole', restore, 200, {name: 46, strategy: 0, status: 30, elapsed: 4}],
		['no row has a message: the name takes the room a message would have', {...restore, trailing: false}, 80, {name: 46, strategy: 0, status: 24, elapsed: 4}],
		['no reasons: nothing to cut in STATUS, the name gives way', {...kudo, name: 70, trailing: false}, 80, {name: 47, strategy: 8, status: 11, elapsed: 6}],
		['the name down to 24 first, then the room for the message', kudo, 60, {name: 24, strategy: 8, status: 11, elapsed: 6}],
		['then the strategy, then the name down to 12', kudo, 40, {name: 17, strategy: 0, status: 11, elapsed: 6}],
		['too narrow even so: STATUS and the timer stay whole', kudo, 20, {name: 12, strategy: 0, status: 11, elapsed: 6}],
		['a short name is never padded out or cut; the strategy stays while the line has it', {...kudo, name: 10}, 45, {name: 10, strategy: 8, status: 11, elapsed: 6}],
	])('%s', (_, natural, width, expected) => {
		const widths = treeColumnWidths(natural, width);
		expect(widths).toEqual(expected);
		expect(widths.status).toBeGreaterThanOrEqual(Math.min(natural.status, natural.word + 1));
		expect(used(widths) <= width || widths.name === Math.min(natural.name, 12)).toBe(true);
	});

	test('a reason is cut to its word, a space and the marker — the ASCII marker is three cells (`pending ...`, not `pendin...`)', () => {
		expect(treeColumnWidths(restore, 70)).toEqual({name: 38, strategy: 0, status: 10, elapsed: 4});
		expect(treeColumnWidths(restore, 70, 3)).toEqual({name: 36, strategy: 0, status: 12, elapsed: 4});
	});

	test('with a message anywhere in the tree, it keeps 10 cells (and its gap) while names are over 24', () => {
		const widths = treeColumnWidths(restore, 80);
		expect(80 - used(widths)).toBe(12);
	});
});
