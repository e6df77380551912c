/**
 * The `?` help at 80×24 in a headless xterm: everything it has can be reached by scrolling, and the screen
 * never scrolls (the overlay stays within the terminal).
 */
import {afterEach, describe, expect, it} from 'vitest';
import {objectKey} from '../../source/model/plan-tree.js';
import {keymap} from '../../source/ui/keymap.js';
import {appElement} from '../helpers/app-element.js';
import {cleanupTerminals, renderInTerminal} from '../helpers/terminal.js';
import {mysqlDeploy, snapshotOf} from '../helpers/ui-objects.js';
import {ARROW_DOWN, ARROW_UP, PAGE_DOWN, PAGE_UP} from '../helpers/ui.js';

afterEach(cleanupTerminals);

describe('help overlay at 80x24', () => {
	it('scrolls with j/k, arrows and PgUp/PgDn until every line was seen', async () => {
		const mysql = mysqlDeploy();
		const {element} = appElement({snapshot: snapshotOf({objects: [mysql]}), targets: [objectKey(mysql)]});
		const ui = renderInTerminal(element, {columns: 80, rows: 24});
		await ui.waitForScreen(screen => screen.join('\n').includes('cleanup'), 'the tree');
		await ui.press('?');
		const first = (await ui.waitForScreen(screen => screen.join('\n').includes('KEYS'), 'the help')).join('\n');
		expect(first).toMatch(/j\/k, PgUp\/PgDn scroll/);
		expect(first).toMatch(/↓ \+\d+ more/);

		const seen = new Set<string>();
		const collect = (screen: string[]) => {
			for (const line of screen) {
				seen.add(line.trim());
			}
		};

		collect(ui.screen());
		for (let i = 0; i < 40; i++) {
			await ui.press('j');
			collect(ui.screen());
		}

		const bottom = ui.text();
		expect(bottom).not.toMatch(/↓ \+\d+ more/);
		expect(bottom).toMatch(/↑ \d+ more/);
		for (const binding of keymap.filter(b => !b.only)) {
			expect([...seen].some(line => line.includes(binding.description)), binding.description).toBe(true);
		}

		expect(ui.scrolledOff()).toBe(0);
		await ui.press(PAGE_UP, PAGE_UP, PAGE_UP);
		await ui.waitForScreen(screen => screen.join('\n').includes('PgUp/PgDn scroll'), 'PgUp back at the top');
		await ui.press(PAGE_DOWN, ARROW_DOWN, ARROW_UP, 'k');
		await ui.waitForScreen(screen => /↑ \d+ more/.test(screen.join('\n')), 'PgDn scrolled down again');
		expect(ui.screen().length).toBe(24);
		expect(ui.scrolledOff()).toBe(0);
	});
});
