/**
 * What a 1 Hz tick costs in the tree of a huge plan: only the rows on screen may be looked at. Counted, not timed:
 * every plan node is a Proxy that records when any of its properties is read.
 */
import {afterEach, describe, expect, test} from 'vitest';
import {objectKey, type PlanNode, type PlanObject} from '../../source/model/plan-tree.js';
import {objectTimingId, type NodeTiming} from '../../source/state/store.js';
import {treeColumnsAt, treeColumnsBasis} from '../../source/ui/components/plan-tree-view.js';
import {treeColumnWidths} from '../../source/ui/tree-columns.js';
import {elapsedOf} from '../../source/ui/elapsed.js';
import {createTheme} from '../../source/ui/theme.js';
import {visibleRows} from '../../source/ui/tree-rows.js';
import {formatDuration} from '../../source/model/format-duration.js';
import {namePart, spinsByTimer} from '../../source/ui/components/node-row.js';
import {singleLine} from '../../source/ui/cell-text.js';
import {displayWidth} from '../../source/model/display-width.js';
import {renderApp} from '../helpers/render-app.js';
import {cleanupUi} from '../helpers/ui.js';
import {backupFailed, bigPlan, nightlyComplete, snapshotOf, t0} from '../helpers/ui-objects.js';

afterEach(cleanupUi);

const steps = 5000;
const runningStep = 2500;

/** Ids of nodes read while `counting`. */
const touched = new Set<string>();
let counting = false;

function watched(node: PlanNode): PlanNode {
	const target: PlanNode = {...node, children: node.children.map(child => watched(child))};
	return new Proxy(target, {
		get(t, property, receiver) {
			if (counting) {
				touched.add(t.id);
			}

			return Reflect.get(t, property, receiver) as unknown;
		},
	});
}

function hugePlan(): {object: PlanObject; timings: Map<string, NodeTiming>} {
	const plain = bigPlan(steps, runningStep);
	const object = {...plain, tree: plain.tree.map(n => watched(n))};
	const timings = new Map<string, NodeTiming>();
	const phase = 'plan:deploy/phase:all';
	for (let i = 0; i < runningStep; i++) {
		timings.set(`${phase}/step:s${i}`, {startedAt: t0 - 600_000 + i * 10, endedAt: t0 - 600_000 + i * 10 + 5000});
	}

	timings.set(`${phase}/step:s${runningStep}`, {startedAt: t0 - 59_000});
	timings.set('plan:deploy', {startedAt: t0 - 600_000});
	timings.set(phase, {startedAt: t0 - 600_000});
	return {object, timings};
}

describe('a tick in the tree of a 5000-step plan', () => {
	test('reads only the nodes on screen', async () => {
		const {object, timings} = hugePlan();
		const key = objectKey(object);
		const app = renderApp({snapshot: snapshotOf({objects: [object], timings: new Map([[key, timings]]), lastEventAt: t0}), targets: [key], rows: 30});
		await app.waitForFrame(f => /step-2500 +IN_PROGRESS +. 0:59/.test(f), {what: 'the running step at 0:59'});
		expect(app.lastFrame()).toMatch(/↓ \+\d+ more/);

		touched.clear();
		counting = true;
		app.clock.advance(1000);
		await app.waitForFrame(f => /step-2500 +IN_PROGRESS +. 1:00/.test(f), {what: 'the running step at 1:00'});
		counting = false;

		// About 25 rows fit in 30 lines; the plan and phase are read for the object lines and the detail.
		expect(touched.size).toBeGreaterThan(0);
		expect(touched.size).toBeLessThanOrEqual(40);
	});

	test('a cursor move reads only the nodes on screen too (the rows are remembered per tree and folds)', async () => {
		const {object, timings} = hugePlan();
		const key = objectKey(object);
		const app = renderApp({snapshot: snapshotOf({objects: [object], timings: new Map([[key, timings]]), lastEventAt: t0}), targets: [key], rows: 30});
		await app.waitForFrame(f => /› +● step-2500/.test(f), {what: 'the cursor on the running step'});
		touched.clear();
		counting = true;
		await app.press('j');
		await app.waitForFrame(f => /› +◌ step-2501/.test(f), {what: 'the cursor on the next step'});
		counting = false;
		expect(touched.size).toBeGreaterThan(0);
		expect(touched.size).toBeLessThanOrEqual(40);
	});
});

describe('a tick in the list with the 5000-step plan open in place', () => {
	test('reads only the nodes on screen', async () => {
		const {object, timings} = hugePlan();
		const key = objectKey(object);
		const others = [nightlyComplete(), backupFailed()];
		// The object's own timer shows the tick arrived.
		timings.set(objectTimingId, {startedAt: t0 - 600_000});
		const app = renderApp({snapshot: snapshotOf({objects: [object, ...others], timings: new Map([[key, timings]]), lastEventAt: t0}), rows: 30});
		// Too big for the first screen, it starts closed; → opens it.
		await app.waitForFrame(f => /^ {2}▸ Instance +big +many-steps/m.test(f), {what: 'the plan closed in the list'});
		// Second in the list: after the failed backup, before the succeeded nightly.
		await app.press('j', 'l');
		await app.waitForFrame(f => /› ▾ Instance +big +many-steps/.test(f) && / step-002 /.test(f), {what: 'the plan open in the list'});
		expect(app.lastFrame()).toMatch(/↓ \+\d+ more/);

		touched.clear();
		counting = true;
		app.clock.advance(1000);
		await app.waitForFrame(f => /› ▾ Instance +big +many-steps .* 10:01/.test(f), {what: 'the object timer a second on'});
		counting = false;
		// About 25 rows fit in 30 lines.
		expect(touched.size).toBeLessThanOrEqual(40);
	});
});

describe('tree columns from a basis', () => {
	/** What the widths were before: every row's elapsed at `now`. */
	function naive(rows: ReturnType<typeof visibleRows>, timings: ReadonlyMap<string, NodeTiming>, now: number, width: number) {
		const theme = createTheme({color: false, ascii: false});
		let name = 0;
		let strategy = 0;
		let status = 0;
		let trailing = false;
		for (const row of rows) {
			const {before, icon, label} = namePart(row, theme);
			name = Math.max(name, displayWidth(before) + displayWidth(icon) + 1 + displayWidth(label));
			strategy = Math.max(strategy, displayWidth(singleLine(row.node.strategy ?? '')));
			status = Math.max(status, Math.min(14, displayWidth(singleLine(row.node.status))));
			trailing ||= Boolean(row.node.message || row.node.note || row.node.active || row.node.state === 'retrying');
		}

		const elapsed = rows.map(row => elapsedOf(timings.get(row.node.id), now));
		const elapsedWidth = Math.max(0, ...elapsed.map((ms, i) => (ms === undefined ? 0 : formatDuration(ms).length + (spinsByTimer(rows[i]!, ms, theme) ? 2 : 0))));
		return treeColumnWidths({name, strategy, status, word: status, elapsed: elapsedWidth, trailing}, width);
	}

	test('match the widths computed from every row, as timers grow past 10 minutes and an hour', () => {
		const theme = createTheme({color: false, ascii: false});
		const object = bigPlan(40, 20);
		const rows = visibleRows(object.tree, new Map());
		const phase = 'plan:deploy/phase:all';
		const timings = new Map<string, NodeTiming>([
			[`${phase}/step:s3`, {startedAt: t0 - 700_000, endedAt: t0 - 100_000}],
			[`${phase}/step:s20`, {startedAt: t0 - 590_000}],
			// A pending row with a start the object gave: its timer runs without a spinner.
			[`${phase}/step:s30`, {startedAt: t0 - 3_590_000}],
		]);
		const basis = treeColumnsBasis(rows, timings, theme);
		for (const now of [t0, t0 + 20_000, t0 + 60_000, t0 + 3_600_000]) {
			for (const width of [60, 120]) {
				expect(treeColumnsAt(basis, now, width), `now +${now - t0} ms, width ${width}`).toEqual(naive(rows, timings, now, width));
			}
		}
	});
});
