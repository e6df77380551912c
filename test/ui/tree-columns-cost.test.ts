/**
 * What the tree's column basis measures when a big plan changes: counted, not timed. Every row's icon and fold
 * marker are non-ASCII (string-width's slow path), but there are only a few distinct ones, and displayWidth
 * (source/model/display-width.ts) hands each to string-width once.
 */
import {expect, test, vi} from 'vitest';
import {treeColumnsBasis} from '../../source/ui/components/plan-tree-view.js';
import {createTheme} from '../../source/ui/theme.js';
import {visibleRows} from '../../source/ui/tree-rows.js';
import {bigPlan} from '../helpers/ui-objects.js';

const measured: string[] = [];
vi.mock('string-width', async original => {
	const real = await original<typeof import('string-width')>();
	return {
		default(text: string) {
			measured.push(text);
			return real.default(text);
		},
	};
});

test('a 500-step tree measures each distinct icon and indent once', () => {
	const theme = createTheme({color: false, ascii: false});
	const rows = visibleRows(bigPlan(500, 250).tree, new Map());
	measured.length = 0;
	const basis = treeColumnsBasis(rows, new Map(), theme);
	expect(basis.name).toBeGreaterThan(0);
	const nonAscii = measured.filter(text => /[^\u0020-\u007E]/.test(text));
	expect(nonAscii.length).toBeLessThanOrEqual(20);
	expect(new Set(nonAscii).size).toBe(nonAscii.length);
});
