/**
 * The list as a tree, drawn into a headless terminal: running objects open in place, finished ones closed; the
 * fold keys work on objects and nodes; enter opens full screen and esc comes back to the same row.
 */
import {afterEach, describe, expect, test} from 'vitest';
import {objectKey} from '../../source/model/plan-tree.js';
import {appElement} from '../helpers/app-element.js';
import {cleanupTerminals, renderInTerminal} from '../helpers/terminal.js';
import {ARROW_DOWN, ARROW_LEFT, ARROW_RIGHT, ENTER, ESC, SPACE} from '../helpers/ui.js';
import {backupFailed, kafkaRetrying, mysqlDeploy, mysqlDeployTimings, nightlyComplete, snapshotOf} from '../helpers/ui-objects.js';

afterEach(cleanupTerminals);

const mysql = mysqlDeploy();
const objects = [backupFailed(), nightlyComplete(), mysql, kafkaRetrying()];
const snapshot = () => snapshotOf({objects, timings: new Map([[objectKey(mysql), mysqlDeployTimings()]])});
const selected = (screen: string[]) => screen.find(line => /^[›>]/.test(line)) ?? '';

describe('the list as a tree', () => {
	test('running objects are open down to their running step, finished ones closed', async () => {
		const ui = renderInTerminal(appElement({snapshot: snapshot()}).element, {columns: 110, rows: 30});
		const screen = await ui.waitForScreen(s => s.some(line => line.includes('kafka')), 'the list');
		const text = screen.join('\n');
		expect(text).toMatch(/^› ▸ ActionSet +kanister +backup-glptq +backup +✖ failed/m);
		expect(text).toMatch(/^ {2}▸ ActionSet +kanister +nightly-x7k2q /m);
		expect(text).toMatch(/^ {2}▾ Instance +default +mysql-instance +deploy +. running/m);
		// mysql's tree under its row, with the tree screen's timers; the running step's spinner turns by its timer.
		expect(text).toMatch(/^ {4}▾ ● deploy +serial +IN_PROGRESS +. 3:41 +updated/m);
		expect(text).toMatch(/^ {10}✔ deploy +COMPLETE +1:12$/m);
		expect(text).toMatch(/^ {10}● init +IN_PROGRESS +. 2:29$/m);
		expect(text).toMatch(/^ {4}▸ ✖ backup +serial +FATAL_ERROR/m);
		expect(text).toMatch(/^ {2}▾ Instance +kafka +kafka +deploy +↻ retrying/m);
		expect(text).toMatch(/^ {10}↻ service +ERROR +retrying \(3rd time\)/m);
		expect(ui.scrolledOff()).toBe(0);
	});

	test('→ opens a closed object, ← on its first node goes back to it, ← again closes it; space toggles', async () => {
		const ui = renderInTerminal(appElement({snapshot: snapshot()}).element, {columns: 110, rows: 30});
		await ui.waitForScreen(s => selected(s).includes('backup-glptq'), 'the list');
		await ui.press(ARROW_RIGHT);
		let screen = await ui.waitForScreen(s => selected(s).startsWith('› ▾ ActionSet') && s.some(line => /^ {8}✖ copyFiles +failed/.test(line)), 'backup-glptq open');
		expect(screen.join('\n')).toMatch(/^ {8}⤷ ✖ deferPhase · always runs +failed/m);
		await ui.press(ARROW_RIGHT);
		await ui.waitForScreen(s => /^› +▾ ✖ backup +statefulset/.test(selected(s)), 'the cursor on its action');
		await ui.press(ARROW_LEFT);
		await ui.waitForScreen(s => /^› +▸ ✖ backup +statefulset/.test(selected(s)), 'the action folded');
		await ui.press(ARROW_LEFT);
		await ui.waitForScreen(s => selected(s).startsWith('› ▾ ActionSet'), 'back on the object');
		await ui.press(ARROW_LEFT);
		screen = await ui.waitForScreen(s => selected(s).startsWith('› ▸ ActionSet'), 'the object closed');
		expect(screen.some(line => line.includes('copyFiles'))).toBe(false);
		// Down to mysql (running, open) past the retrying kafka and its 5 open rows: space closes it and opens it again.
		await ui.press(...Array.from({length: 7}, () => ARROW_DOWN), SPACE);
		screen = await ui.waitForScreen(s => /^› ▸ Instance +default +mysql-instance/.test(selected(s)), 'mysql closed');
		expect(screen.some(line => / init +IN_PROGRESS/.test(line))).toBe(false);
		await ui.press(SPACE);
		await ui.waitForScreen(s => /^› ▾ Instance +default +mysql-instance/.test(selected(s)) && s.some(line => / init +IN_PROGRESS/.test(line)), 'mysql open again');
	});

	test('enter on a node opens its object full screen with the cursor on that node; esc comes back to that row', async () => {
		const ui = renderInTerminal(appElement({snapshot: snapshot()}).element, {columns: 110, rows: 30});
		await ui.waitForScreen(s => selected(s).includes('backup-glptq'), 'the list');
		// Failed first, then the retrying kafka (and its 5 open rows), then mysql, its deploy plan, phase, step deploy, step init.
		await ui.press(...Array.from({length: 11}, () => ARROW_DOWN));
		await ui.waitForScreen(s => /^› {9}● init +IN_PROGRESS/.test(selected(s)), 'the cursor on mysql’s init step');
		await ui.press(ENTER);
		const tree = await ui.waitForScreen(s => s.some(line => line.startsWith('Instance default/mysql-instance')), 'mysql full screen');
		expect(selected(tree)).toMatch(/^› {7}● init +IN_PROGRESS/);
		expect(tree.some(line => line.includes('KIND'))).toBe(false);
		await ui.press(ESC);
		const back = await ui.waitForScreen(s => s.some(line => line.includes('KIND')), 'the list again');
		expect(selected(back)).toMatch(/^› {9}● init +IN_PROGRESS/);
	});

	test('--ascii: fold markers, cursor and icons in ASCII, no spinner', async () => {
		const ui = renderInTerminal(appElement({snapshot: snapshot(), ascii: true}).element, {columns: 110, rows: 30});
		const screen = await ui.waitForScreen(s => s.some(line => line.includes('kafka')), 'the list');
		const text = screen.join('\n');
		expect(text).toMatch(/^> \+ ActionSet +kanister +backup-glptq +backup +\[XX\] failed/m);
		expect(text).toMatch(/^ {2}- Instance +default +mysql-instance +deploy +\[\.\.\] running/m);
		expect(text).toMatch(/^ {10}\[\.\.\] init +IN_PROGRESS +2:29$/m);
		expect(text).toMatch(/^[\u0020-\u007E\n]*$/);
	});

	test('the help overlay says the fold keys work in the list', async () => {
		const ui = renderInTerminal(appElement({snapshot: snapshot()}).element, {columns: 110, rows: 40});
		await ui.waitForScreen(s => s.some(line => line.includes('kafka')), 'the list');
		await ui.press('?');
		const help = (await ui.waitForScreen(s => s.some(line => line.startsWith('KEYS')), 'the help')).join('\n');
		expect(help).toMatch(/^Trees \(list and full screen\)/m);
		expect(help).toMatch(/← h +collapse, or go to the parent/);
		expect(help).toMatch(/space ⏎ +collapse \/ expand/);
		expect(help).toMatch(/⏎ +open full screen/);
	});
});

