import {afterEach, describe, expect, test} from 'vitest';
import {objectKey} from '../../source/model/plan-tree.js';
import {appElement} from '../helpers/app-element.js';
import {cleanupTerminals, renderInTerminal} from '../helpers/terminal.js';
import {PAGE_DOWN, PAGE_UP} from '../helpers/ui.js';
import {bigPlan, snapshotOf} from '../helpers/ui-objects.js';

afterEach(cleanupTerminals);

const cursorRow = (screen: string[]) => screen.findIndex(line => line.startsWith('›'));
const usedRows = (screen: string[]) => screen.filter(line => line.trim() !== '').length;

describe('a 300-step plan in a 20-row terminal', () => {
	test('the frame never exceeds rows - 1 and the cursor row stays on screen', async () => {
		const big = bigPlan(300, 150);
		const {element} = appElement({snapshot: snapshotOf({objects: [big]}), targets: [objectKey(big)]});
		const ui = renderInTerminal(element, {columns: 80, rows: 20});
		let screen = await ui.waitForScreen(s => s.some(line => line.includes('step-150')), 'the running step');
		expect(screen[0]).toMatch(/^planwatch · /);
		expect(usedRows(screen)).toBeLessThanOrEqual(19);
		expect(screen[cursorRow(screen)]).toMatch(/step-150 +IN_PROGRESS/);
		expect(screen.join('\n')).toMatch(/↑ \d+ more/);
		expect(screen.join('\n')).toMatch(/↓ \+\d+ more/);

		const moves: Array<[string, RegExp]> = [
			['G', /step-299/],
			[PAGE_UP, /step-2\d\d/],
			['g', /▾ . deploy/],
			[PAGE_DOWN, /step-0\d\d/],
			['j', /step-0\d\d/],
		];
		for (const [key, expected] of moves) {
			await ui.press(key);
			screen = await ui.waitForScreen(s => cursorRow(s) >= 0 && expected.test(s[cursorRow(s)]!), `cursor on ${expected} after ${JSON.stringify(key)}`);
			expect(screen[0], `header still on the first row after ${JSON.stringify(key)}`).toMatch(/^planwatch · /);
			expect(usedRows(screen)).toBeLessThanOrEqual(19);
		}

		// Nothing ever scrolled into the user's scrollback: every frame fit.
		expect(ui.scrolledOff()).toBe(0);
	});
});
