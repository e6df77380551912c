import {afterEach, describe, expect, test} from 'vitest';
import {objectKey} from '../../source/model/plan-tree.js';
import {renderApp} from '../helpers/render-app.js';
import {ARROW_DOWN, ARROW_LEFT, ARROW_RIGHT, ARROW_UP, ENTER, SPACE, cleanupUi} from '../helpers/ui.js';
import {backupFailed, kafkaRetrying, mysqlDeploy, mysqlDeployTimings, snapshotOf, t0, transientError} from '../helpers/ui-objects.js';

afterEach(cleanupUi);

const mysql = mysqlDeploy();
const mysqlKey = objectKey(mysql);

function renderMysql(rows = 30) {
	return renderApp({
		snapshot: snapshotOf({objects: [mysql], timings: new Map([[mysqlKey, mysqlDeployTimings()]]), lastEventAt: t0 - 2000}),
		targets: [mysqlKey],
		rows,
	});
}

/** The tree rows of a frame with no detail, events or banner: after the header and object lines, before the footer. */
function treeRows(frame: string): string[] {
	return frame.split('\n').slice(3, -1);
}

/** The line of the selected row. */
const selected = (frame: string) => frame.split('\n').find(line => line.startsWith('›'));

describe('one Instance, running', () => {
	test('shows the sketch: header, object lines, the tree open down to the running step, footer', async () => {
		const app = renderMysql();
		const frame = await app.waitForFrame(f => f.includes('init'));
		const lines = frame.split('\n');
		// What changes every second sits at the end of the line (a second rewrites only that suffix).
		expect(lines[0]).toMatch(/^planwatch · kind-prod · default · UTC · ● live +event 2s ago · elapsed 0:00$/);
		expect(lines[1]).toBe('Instance default/mysql-instance  ·  mysql-5.7-0.3.0  ·  active plan deploy');
		expect(lines[2]).toMatch(/^● deploy is running: step init \(2 of 3\)$/);
		// A running row's spinner turns in front of its timer, so one short part of the row changes each second.
		expect(lines[3]).toMatch(/^ {2}▾ ● deploy +serial +IN_PROGRESS +[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] 3:41 +updated 11:02:51$/);
		expect(lines[4]).toMatch(/^ {4}▾ ● deploy +serial +IN_PROGRESS +[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] 3:41$/);
		expect(lines[5]).toMatch(/^ {8}✔ deploy +COMPLETE +1:12$/);
		expect(lines[6]).toMatch(/^› {7}● init +IN_PROGRESS +[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] 2:29$/);
		expect(lines[7]).toMatch(/^ {8}◌ cleanup +PENDING$/);
		expect(lines[8]).toMatch(/^ {2}▸ ✖ backup +serial +FATAL_ERROR +last run 2026-11-28 09:00:00$/);
		expect(lines[9]).toMatch(/^ {2}▸ ─ restore +serial +NEVER_RUN$/);
		expect(lines[10]).toBe('↑↓ move  ←→ fold  x all  e events  ? help  q quit');
		expect(lines).toHaveLength(11);
	});

	test('a narrow header keeps the timers: the event age gives way (it used to be the timers)', async () => {
		const app = renderApp({
			snapshot: snapshotOf({objects: [mysql], timings: new Map([[mysqlKey, mysqlDeployTimings()]]), lastEventAt: t0 - 2000}),
			targets: [mysqlKey],
			columns: 66,
			rows: 30,
		});
		const frame = await app.waitForFrame(f => f.includes('init'));
		expect(frame.split('\n')[0]).toMatch(/^planwatch · kind-prod · default · UTC · ● live {2,}elapsed 0:00$/);
	});

	test('one spinner: every running node shows the same frame, and it turns with the 1 Hz clock', async () => {
		const app = renderMysql();
		const spinners = (f: string) => [3, 4, 6].map(i => /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/.exec(f.split('\n')[i]!)?.[0]);
		const first = await app.waitForFrame(f => f.includes('init'));
		const frames = new Set(spinners(first));
		expect(frames.size, first).toBe(1);
		expect([...frames][0]).toBeDefined();
		app.clock.advance(1000);
		const next = await app.waitForFrame(f => !frames.has(spinners(f)[0]), {what: 'the next spinner frame'});
		expect(new Set(spinners(next)).size, next).toBe(1);
	});

	test('running timers tick with the clock; finished ones stay', async () => {
		const app = renderMysql();
		await app.waitForFrame(f => /init +IN_PROGRESS +. 2:29/.test(f));
		app.clock.advance(1000);
		const frame = await app.waitForFrame(f => /init +IN_PROGRESS +. 2:30/.test(f), {what: 'init at 2:30'});
		expect(frame).toMatch(/✔ deploy +COMPLETE +1:12/);
		expect(frame).toContain('event 3s ago · elapsed');
		expect(frame).toMatch(/elapsed 0:01/);
	});

	test('↑/↓ and j/k move the cursor', async () => {
		const app = renderMysql();
		await app.waitForFrame(f => selected(f)?.includes('init') ?? false);
		await app.press(ARROW_DOWN);
		await app.waitForFrame(f => selected(f)?.includes('cleanup') ?? false, {what: 'cursor on cleanup'});
		await app.press('k', 'k');
		await app.waitForFrame(f => /✔ deploy/.test(selected(f) ?? ''), {what: 'cursor on step deploy'});
		await app.press(ARROW_UP, 'j');
		await app.waitForFrame(f => /✔ deploy/.test(selected(f) ?? ''), {what: 'cursor back on step deploy'});
	});

	test('← goes to the parent, ← again collapses, → expands; space and enter toggle', async () => {
		const app = renderMysql();
		await app.waitForFrame(f => f.includes('init'));
		await app.press(ARROW_LEFT);
		await app.waitForFrame(f => /▾ . deploy +serial/.test(selected(f) ?? '') && (selected(f) ?? '').startsWith('›   '), {what: 'cursor on the phase'});
		await app.press(ARROW_LEFT);
		const frame = await app.waitForFrame(f => !f.includes('cleanup'), {what: 'phase collapsed'});
		expect(selected(frame)).toMatch(/▸ . deploy/);
		await app.press(ARROW_RIGHT);
		await app.waitForFrame(f => f.includes('cleanup'), {what: 'phase expanded'});
		await app.press(SPACE);
		await app.waitForFrame(f => !f.includes('cleanup'), {what: 'collapsed by space'});
		await app.press(ENTER);
		await app.waitForFrame(f => f.includes('cleanup'), {what: 'expanded by enter'});
		// h/l are the same keys.
		await app.press('h');
		await app.waitForFrame(f => !f.includes('cleanup'), {what: 'collapsed by h'});
		await app.press('l');
		await app.waitForFrame(f => f.includes('cleanup'), {what: 'expanded by l'});
	});

	test('x expands everything, x again collapses to the plans; g/G go to the top and bottom', async () => {
		const app = renderMysql();
		await app.waitForFrame(f => f.includes('init'));
		await app.press('x');
		let frame = await app.waitForFrame(f => f.includes('pv'), {what: 'all expanded'});
		expect(treeRows(frame)).toHaveLength(14);
		await app.press('x');
		frame = await app.waitForFrame(f => !f.includes('cleanup'), {what: 'all collapsed'});
		const rows = treeRows(frame);
		expect(rows).toHaveLength(3);
		expect(rows[0]).toMatch(/^› ▸ . deploy /);
		expect(rows[1]).toMatch(/^ {2}▸ ✖ backup /);
		expect(rows[2]).toMatch(/^ {2}▸ ─ restore /);
		await app.press('G');
		await app.waitForFrame(f => (selected(f) ?? '').includes('restore'), {what: 'cursor at the bottom'});
		await app.press('g');
		await app.waitForFrame(f => (selected(f) ?? '').includes('deploy'), {what: 'cursor at the top'});
	});

	test('the tree follows new data: the next step runs, the cursor follows it until the user moves', async () => {
		const app = renderMysql();
		await app.waitForFrame(f => (selected(f) ?? '').includes('init'));
		const steps = mysql.tree[0]!.children[0]!.children;
		const next = {
			...mysql,
			tree: [
				{
					...mysql.tree[0]!,
					children: [
						{
							...mysql.tree[0]!.children[0]!,
							children: [steps[0]!, {...steps[1]!, status: 'COMPLETE', state: 'succeeded' as const}, {...steps[2]!, status: 'IN_PROGRESS', state: 'running' as const}],
						},
					],
				},
				...mysql.tree.slice(1),
			],
		};
		app.store.set(snapshotOf({objects: [next]}));
		await app.waitForFrame(f => /cleanup +IN_PROGRESS/.test(selected(f) ?? ''), {what: 'cursor following the running step'});
	});
});

describe('retrying and failed', () => {
	test('a step in ERROR reads as retrying (↻), with its full message under the tree', async () => {
		const kafka = kafkaRetrying();
		const app = renderApp({snapshot: snapshotOf({objects: [kafka]}), targets: [objectKey(kafka)], columns: 100, rows: 20});
		const frame = await app.waitForFrame(f => f.includes('service'));
		const row = selected(frame)!;
		expect(row).toMatch(/↻ service +ERROR +retrying \(3rd time\) · A transient/);
		expect(row.length).toBeLessThanOrEqual(100);
		// The detail lines carry the message the row had to cut.
		const detail = frame.split('\n').slice(frame.split('\n').indexOf(row) + 2).join(' ');
		expect(detail.replaceAll(/\s+/g, ' ')).toContain('service: retrying (3rd time) · A transient error');
		expect(frame.replaceAll(/\s+/g, ' ')).toContain(transientError.slice(-40).replaceAll(/\s+/g, ' ').slice(0, 20));
	});

	test('a Kanister action with its deferPhase', async () => {
		const backup = backupFailed();
		const app = renderApp({snapshot: snapshotOf({objects: [backup]}), targets: [objectKey(backup)], columns: 120});
		const frame = await app.waitForFrame(f => f.includes('deferPhase'));
		const lines = frame.split('\n');
		expect(lines[1]).toBe('ActionSet kanister/backup-glptq  ·  blueprint postgres-bp  ·  failed  ·  62%');
		expect(lines[2]).toBe('✖ backup failed in phase copyFiles; deferPhase (cleanup) failed too — see events');
		expect(frame).toMatch(/▾ ✖ backup +statefulset postgres-test\/my-release-postgresql +failed/);
		expect(selected(frame)).toMatch(/✖ copyFiles +failed +exit status 3: snapshot upload refused/);
		expect(frame).toMatch(/◌ stopBackup +pending +\(skipped after failure\)/);
		expect(frame).toMatch(/⤷ ✖ deferPhase · always runs +failed +pods "postgres-backup-x" not found/);
	});

	test('a missing target says so instead of an empty screen', async () => {
		const app = renderApp({snapshot: snapshotOf({objects: [], synced: false}), targets: ['Instance/default/nope']});
		await app.waitForFrame(f => f.includes('Instance default/nope') && f.includes('loading…'));
		app.store.set(snapshotOf({objects: [], synced: true}));
		await app.waitForFrame(f => f.includes('not found: watching for it to appear'));
	});

	test('a target deleted while shown: its last state stays, saying it was deleted (not "watching for it to appear")', async () => {
		const app = renderMysql();
		await app.waitForFrame(f => f.includes('init'));
		app.store.set({...snapshotOf({objects: []}), deleted: new Map([[mysqlKey, {object: mysql, at: t0}]])});
		const frame = await app.waitForFrame(f => f.includes('deleted at'));
		expect(frame).toContain(`deleted at ${new Date(t0).toISOString().slice(11, 19)}; last seen: ${mysql.summary}`);
		expect(frame).not.toContain('watching for it to appear');
		expect(frame).toMatch(/deploy/);
	});
});

describe('the header once listed', () => {
	test('a wait that ended at the first list: its last frame does not say connecting', async () => {
		const app = renderApp({snapshot: snapshotOf({objects: [mysql], connection: {status: 'connecting'}, synced: true}), targets: [mysqlKey]});
		const frame = await app.waitForFrame(f => f.includes('init'));
		expect(frame.split('\n')[0]).toContain('● listed');
		expect(frame).not.toContain('connecting');
		app.store.set(snapshotOf({objects: [], connection: {status: 'connecting'}, synced: false}));
		await app.waitForFrame(f => f.includes('connecting…'));
	});
});
