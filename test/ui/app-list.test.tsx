import {afterEach, describe, expect, test} from 'vitest';
import {objectKey} from '../../source/model/plan-tree.js';
import {objectTimingId} from '../../source/state/store.js';
import {renderApp} from '../helpers/render-app.js';
import {ARROW_DOWN, BACKSPACE, ENTER, ESC, cleanupUi} from '../helpers/ui.js';
import {backupFailed, kafkaRetrying, mysqlDeploy, mysqlDeployTimings, nightlyComplete, snapshotOf, t0} from '../helpers/ui-objects.js';

afterEach(cleanupUi);

const objects = [mysqlDeploy(), kafkaRetrying(), backupFailed(), nightlyComplete()];

function renderList(rows = 30) {
	const timings = new Map([
		[objectKey(objects[0]!), mysqlDeployTimings()],
		[objectKey(objects[2]!), new Map([[objectTimingId, {startedAt: t0 - 58_000, endedAt: t0}]])],
	]);
	return renderApp({snapshot: snapshotOf({objects, timings}), rows});
}

const selected = (frame: string) => frame.split('\n').find(line => line.startsWith('›'));
/** Object rows: cursor, fold marker (▾ expanded, ▸ collapsed), kind. */
const rowsOf = (frame: string) => frame.split('\n').filter(line => /^[› ] [▾▸ ] (Instance|ActionSet) /.test(line));

describe('list view', () => {
	test('columns KIND NAMESPACE NAME ACTIVE STATE PROGRESS ELAPSED, one row per object, icon and word', async () => {
		const app = renderList();
		const frame = await app.waitForFrame(f => f.includes('KIND'));
		const lines = frame.split('\n');
		// A terminal with room left over shows each object's summary in a MESSAGE column.
		expect(lines[1]).toMatch(/^ {4}KIND +NAMESPACE +NAME +ACTIVE +STATE +PROGRESS +ELAPSED +MESSAGE$/);
		expect(rowsOf(frame)).toHaveLength(4);
		expect(frame).toMatch(/ActionSet +kanister +backup-glptq +backup +✖ failed +62% +0:58/);
		expect(frame).toMatch(/ActionSet +kanister +nightly-x7k2q +backup +✔ succeeded +100%/);
		expect(frame).toMatch(/Instance +default +mysql-instance +deploy +. running +1\/3 steps +3:41/);
		expect(frame).toMatch(/Instance +kafka +kafka +deploy +↻ retrying +7\/12 steps/);
		expect(lines.at(-1)).toBe('↑↓ move  ←→ fold  x all  ⏎ open  / filter  f failing only  e events  ? help  q quit');
	});

	test('a long ELAPSED is shown in units that fit, never cut', async () => {
		const long = (13_115 * 3600 + 55 * 60 + 12) * 1000; // 13115:55:12 does not fit the column
		const timings = new Map([[objectKey(objects[2]!), new Map([[objectTimingId, {startedAt: t0 - long, endedAt: t0}]])]]);
		const app = renderApp({snapshot: snapshotOf({objects, timings})});
		const frame = await app.waitForFrame(f => f.includes('KIND'));
		expect(frame).toMatch(/backup-glptq +backup +✖ failed +62% +546d11h {2}\S/m);
		expect(frame).not.toContain('13115:55');
	});

	test('enter opens the tree of the selected object, esc goes back to the list with the cursor kept', async () => {
		const app = renderList();
		await app.waitForFrame(f => (selected(f) ?? '').includes('backup-glptq'));
		// Failed, then retrying (kafka, its tree open: ← folds it), then running (mysql).
		await app.press(ARROW_DOWN, 'h', ARROW_DOWN);
		await app.waitForFrame(f => (selected(f) ?? '').includes('mysql-instance'), {what: 'cursor on mysql'});
		await app.press(ENTER);
		const tree = await app.waitForFrame(f => f.includes('Instance default/mysql-instance  ·') && f.includes('cleanup'), {what: 'the mysql tree'});
		expect(tree.split('\n').at(-1)).toContain('esc back');
		await app.press(ESC);
		await app.waitForFrame(f => (selected(f) ?? '').includes('mysql-instance') && f.includes('KIND'), {what: 'back in the list on mysql'});
		expect(app.quits()).toBe(0);
	});

	test('/ filters by name as you type; enter keeps the filter, esc clears it', async () => {
		const app = renderList();
		await app.waitForFrame(f => f.includes('KIND'));
		await app.press('/', 'k', 'a', 'f');
		let frame = await app.waitForFrame(f => rowsOf(f).length === 1, {what: 'one row for "kaf"'});
		expect(rowsOf(frame)[0]).toMatch(/kafka/);
		expect(frame).toContain('filter "kaf" · 1 of 4');
		expect(frame.split('\n').at(-1)).toMatch(/^\/ kaf +⏎ keep {2}esc clear$/);
		await app.press(BACKSPACE, BACKSPACE, BACKSPACE, 'q', 'x');
		await app.waitForFrame(f => rowsOf(f).length === 0 && f.includes('nothing matches'), {what: 'no rows for "qx" (q typed, not quit)'});
		expect(app.quits()).toBe(0);
		await app.press(BACKSPACE, BACKSPACE, 'n', 'i', 'g', ENTER);
		frame = await app.waitForFrame(f => rowsOf(f).length === 1 && f.includes('? help'), {what: '"nig" kept after enter'});
		expect(rowsOf(frame)[0]).toMatch(/nightly/);
		await app.press(ESC);
		await app.waitForFrame(f => rowsOf(f).length === 4 && !f.includes('filter "'), {what: 'filter cleared by esc'});
	});

	test('f shows failing objects only (failed and retrying)', async () => {
		const app = renderList();
		await app.waitForFrame(f => rowsOf(f).length === 4);
		await app.press('f');
		const frame = await app.waitForFrame(f => rowsOf(f).length === 2, {what: 'two failing rows'});
		expect(rowsOf(frame).join('\n')).toMatch(/backup-glptq[\s\S]*kafka/);
		expect(frame).toContain('failing only · 2 of 4');
		await app.press('f');
		await app.waitForFrame(f => rowsOf(f).length === 4, {what: 'all rows again'});
	});

	test('several targets list only those objects', async () => {
		const app = renderApp({snapshot: snapshotOf({objects}), targets: [objectKey(objects[0]!), objectKey(objects[1]!)]});
		const frame = await app.waitForFrame(f => f.includes('KIND'));
		// The retrying kafka before the running mysql.
		expect(rowsOf(frame).map(r => r.split(/ +/)[4])).toEqual(['kafka', 'mysql-instance']);
	});

	test('an empty or loading store says so', async () => {
		const app = renderApp({snapshot: snapshotOf({objects: [], synced: false})});
		await app.waitForFrame(f => f.includes('loading…'));
		app.store.set(snapshotOf({objects: []}));
		await app.waitForFrame(f => f.includes('no KUDO Instances or Kanister ActionSets here'));
	});

	test('a long list is windowed around the cursor with "more" lines', async () => {
		const many = Array.from({length: 40}, (_, i) => ({...nightlyComplete(), name: `nightly-${String(i).padStart(2, '0')}`}));
		const app = renderApp({snapshot: snapshotOf({objects: many}), rows: 12});
		let frame = await app.waitForFrame(f => f.includes('nightly-00'));
		expect(frame.split('\n').length).toBeLessThanOrEqual(11);
		expect(frame).toContain('↓ +');
		await app.press('G');
		frame = await app.waitForFrame(f => (selected(f) ?? '').includes('nightly-39'), {what: 'cursor on the last row'});
		expect(frame).toContain('↑ ');
		expect(frame.split('\n').length).toBeLessThanOrEqual(11);
	});
});

describe('a big list', () => {
	test('failed objects first, then running, then the rest, with the counts in the header (300 · 30 failed · 60 running)', async () => {
		const many = Array.from({length: 300}, (_, i) => {
			const base = i % 10 === 0 ? backupFailed() : i % 10 <= 2 ? mysqlDeploy() : nightlyComplete();
			return {...base, kind: 'ActionSet' as const, namespace: `ns-${String(i).padStart(3, '0')}`, name: `o-${String(i).padStart(3, '0')}`};
		});
		const app = renderApp({snapshot: snapshotOf({objects: many}), columns: 140, rows: 24});
		const frame = await app.waitForFrame(f => f.includes('KIND'));
		expect(frame.split('\n')[0]).toMatch(/ · 300 · 30 failed · 60 running /);
		const shown = rowsOf(frame);
		expect(shown.length).toBeGreaterThan(5);
		// The first screen is failed objects only, in namespace order (the store's).
		expect(shown.every(row => row.includes('✖ failed'))).toBe(true);
		expect(shown[0]).toMatch(/ns-000 +o-000/);
		expect(shown[1]).toMatch(/ns-010 +o-010/);
	});
});
