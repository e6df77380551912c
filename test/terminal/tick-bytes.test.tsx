import '../helpers/force-color.js';
import {afterEach, describe, expect, test} from 'vitest';
import {objectKey} from '../../source/model/plan-tree.js';
import {appElement} from '../helpers/app-element.js';
import {cleanupTerminals, renderInTerminal, type TerminalUi} from '../helpers/terminal.js';
import {mysqlDeploy, mysqlDeployTimings, snapshotOf, t0} from '../helpers/ui-objects.js';

afterEach(cleanupTerminals);

/** Every cell's character and look (colour, bold, dim, inverse), row by row. */
function cells(ui: TerminalUi): string[] {
	const buffer = ui.terminal.buffer.active;
	const rows: string[] = [];
	for (let y = 0; y < ui.terminal.rows; y++) {
		const line = buffer.getLine(buffer.viewportY + y);
		let row = '';
		for (let x = 0; x < ui.terminal.cols; x++) {
			const cell = line?.getCell(x);
			row += cell ? `${cell.getChars() || ' '}${cell.getFgColor()}${cell.isBold()}${cell.isDim()}${cell.isInverse()}|` : '';
		}

		rows.push(row);
	}

	return rows;
}

function tree(advanceMs: number) {
	const object = mysqlDeploy();
	const key = objectKey(object);
	const app = appElement({snapshot: snapshotOf({objects: [object], timings: new Map([[key, mysqlDeployTimings()]]), lastEventAt: t0 - 3000}), targets: [key]});
	app.clock.advance(advanceMs);
	return app;
}

describe('a 1 Hz tick on the terminal (incremental rendering)', () => {
	test('rewrites the changed cells with only the styles in effect there, and the screen matches a full draw', async () => {
		const app = tree(0);
		const ui = renderInTerminal(app.element, {columns: 120, rows: 30, incremental: true});
		await ui.waitForScreen(s => s.some(line => line.includes('2:29')), 'the running step at 2:29');
		const before = ui.raw().length;
		app.clock.advance(1000);
		await ui.waitForScreen(s => s.some(line => line.includes('2:30')), 'the running step at 2:30');
		const tick = ui.raw().slice(before);

		// No style switched on and off again before the changed cells: an open code right before its own close.
		expect(tick).not.toMatch(/\u001B\[(?:1|2)m\u001B\[22m|\u001B\[3\dm\u001B\[39m|\u001B\[7m\u001B\[27m/);
		const fresh = renderInTerminal(tree(1000).element, {columns: 120, rows: 30});
		await fresh.waitForScreen(s => s.some(line => line.includes('2:30')), 'a full draw at 2:30');
		expect(cells(ui)).toEqual(cells(fresh));
	});
});
