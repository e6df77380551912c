/**
 * What the ETA history costs a frame: `node test/bench/eta-lookup.mjs`. 1000 Instances of a 20-step plan, a
 * history of 20 runs for that plan; prints the one-off cost per adapted object (expectations are computed once
 * per adaptation) and the per-frame cost of the lookups the tree and the list do for a screenful of rows.
 */
import {performance} from 'node:perf_hooks';
import {RunTracker} from '../../source/history/run-tracker.js';
import {formatEta, nodeEta, planNode as etaPlanNode} from '../../source/model/eta.js';
import type {NodeState, PlanNode, PlanObject} from '../../source/model/plan-tree.js';
import {RunHistory, type RunRecord} from '../../source/model/run-history.js';

const objects = 1000;
const stepsPerPlan = 20;
const rowsOnScreen = 30;

function node(kind: PlanNode['kind'], id: string, name: string, state: NodeState, children: PlanNode[] = []): PlanNode {
	return {id, kind, name, status: state, state, children};
}

function object(i: number): PlanObject {
	const steps = Array.from({length: stepsPerPlan}, (_, s) => node('step', `plan:deploy/phase:all/step:s${s}`, `s${s}`, s < 5 ? 'succeeded' : s === 5 ? 'running' : 'pending'));
	return {
		kind: 'Instance',
		namespace: 'bench',
		name: `o${i}`,
		outcome: 'running',
		summary: '',
		version: 'op-1.0',
		state: 'running',
		status: 'IN_PROGRESS',
		wait: {kind: 'Instance', scheduledPlan: 'deploy', scheduledUid: 'u', planUids: {}, queued: false},
		tree: [node('plan', 'plan:deploy', 'deploy', 'running', [node('phase', 'plan:deploy/phase:all', 'all', 'running', steps)])],
	};
}

const runs: RunRecord[] = Array.from({length: 20}, (_, r) => ({
	v: 1,
	kind: 'Instance',
	group: 'op-1.0',
	top: 'deploy',
	run: `r${r}`,
	at: '2026-01-01T00:00:00.000Z',
	outcome: 'succeeded',
	durations: [{path: [], ms: 60_000 + r * 1000}, {path: ['all'], ms: 59_000 + r * 1000}, ...Array.from({length: stepsPerPlan}, (_, s) => ({path: ['all', `s${s}`], ms: 3000 + r * 50}))],
}));

const history = new RunHistory(runs);
const list = Array.from({length: objects}, (_, i) => object(i));
const now = Date.now();
const startedAt = now - 10_000;

let t = performance.now();
for (const o of list) {
	history.expectations(o);
}

const adaptUs = ((performance.now() - t) * 1000) / objects;

/** The tree: one object's expectations (a cached lookup) and an ETA per visible row. */
function treeFrame(o: PlanObject): number {
	const expectations = history.expectations(o);
	const rows = [o.tree[0]!, o.tree[0]!.children[0]!, ...o.tree[0]!.children[0]!.children].slice(0, rowsOnScreen);
	let n = 0;
	for (const row of rows) {
		const eta = nodeEta(row, expectations, startedAt, now);
		if (eta) {
			n += formatEta(eta).length;
		}
	}

	return n;
}

/** The list: the plan's ETA for each visible object. */
function listFrame(offset: number): number {
	let n = 0;
	for (let i = 0; i < rowsOnScreen; i++) {
		const o = list[(offset + i) % objects]!;
		const plan = etaPlanNode(o);
		const eta = plan ? nodeEta(plan, history.expectations(o), startedAt, now) : undefined;
		if (eta) {
			n += formatEta(eta).length;
		}
	}

	return n;
}

const frames = 20_000;
let sink = 0;
t = performance.now();
for (let f = 0; f < frames; f++) {
	sink += treeFrame(list[f % objects]!);
}

const treeUs = ((performance.now() - t) * 1000) / frames;
t = performance.now();
for (let f = 0; f < frames; f++) {
	sink += listFrame(f);
}

const listUs = ((performance.now() - t) * 1000) / frames;

// The tracker runs after every source event: one object changed among all of them.
const tracker = new RunTracker();
const timings = new Map();
tracker.observe({objects: list, timings});
// As the store does: a new array per change, with the changed object replaced (made before timing).
const events = 2000;
const snapshots: PlanObject[][] = [];
let current = list;
for (let e = 0; e < events; e++) {
	current = [...current];
	current[e % objects] = {...current[e % objects]!};
	snapshots.push(current);
}

t = performance.now();
for (const objectsNow of snapshots) {
	tracker.observe({objects: objectsNow, timings});
}

const trackerUs = ((performance.now() - t) * 1000) / events;
console.log(`objects ${objects}, ${stepsPerPlan + 2} nodes each, ${runs.length} past runs of the plan, ${rowsOnScreen} rows on screen`);
console.log(`expectations per adapted object (once per adaptation): ${adaptUs.toFixed(1)} µs`);
console.log(`tree frame, ETA lookups for ${rowsOnScreen} rows: ${treeUs.toFixed(1)} µs (frame budget 33 ms: ${((treeUs / 33_000) * 100).toFixed(3)} %)`);
console.log(`list frame, plan ETA for ${rowsOnScreen} rows: ${listUs.toFixed(1)} µs (${((listUs / 33_000) * 100).toFixed(3)} %)`);
console.log(`run tracker per source event (${objects} objects, one changed): ${trackerUs.toFixed(1)} µs (at 100 events/s: ${((trackerUs * 100) / 10_000).toFixed(2)} % of a core)`);
if (sink < 0) {
	console.log(sink);
}
