import {describe, expect, test} from 'vitest';
import {adaptInstance} from '../../source/model/adapt-kudo-instance.js';
import type {PlanNode, PlanObject} from '../../source/model/plan-tree.js';
import {stampTimings, type SeenTransition} from '../../source/state/node-timings.js';
import type {NodeTiming} from '../../source/state/store-snapshot.js';
import type {KubeObject} from '../../source/core/kube-object.js';

const names = Array.from({length: 500}, (_, i) => `step-${String(i).padStart(3, '0')}`);

/** An Instance whose one serial phase of 500 steps runs step `running`; `steps[running]` may carry a start. */
function big(running: number, status = (i: number): string => (i < running ? 'COMPLETE' : i === running ? 'IN_PROGRESS' : 'PENDING')): PlanObject {
	const raw: KubeObject = {
		apiVersion: 'kudo.dev/v1beta1',
		kind: 'Instance',
		metadata: {name: 'big', namespace: 'ns', creationTimestamp: '2026-11-30T11:00:00Z'},
		spec: {operatorVersion: {name: 'big-0.1.0'}},
		status: {planStatus: {deploy: {name: 'deploy', status: 'IN_PROGRESS', uid: 'r', phases: [{name: 'all', status: 'IN_PROGRESS', steps: names.map((name, i) => ({name, status: status(i)}))}]}}},
	};
	return adaptInstance(raw);
}

/** `object` whose every node counts the reads of its fields into `reads` (keyed by node id). */
function counted(object: PlanObject, reads: Map<string, number>): PlanObject {
	const wrap = (node: PlanNode): PlanNode => {
		const children = node.children.map(wrap);
		return new Proxy({...node, children}, {
			get(target, field, receiver) {
				reads.set(node.id, (reads.get(node.id) ?? 0) + 1);
				return Reflect.get(target, field, receiver) as unknown;
			},
		});
	};

	return {...object, tree: object.tree.map(wrap)};
}

/** `next`'s tree with each node whose id is in `keep` replaced by `from`'s node (the same object), as the store keeps them. */
function keeping(next: PlanObject, from: PlanObject, keep: (id: string) => boolean): PlanObject {
	const byId = new Map<string, PlanNode>();
	const index = (nodes: readonly PlanNode[]): void => {
		for (const n of nodes) {
			byId.set(n.id, n);
			index(n.children);
		}
	};

	index(from.tree);
	const take = (node: PlanNode): PlanNode => (keep(node.id) ? byId.get(node.id)! : {...node, children: node.children.map(take)});
	return {...next, tree: next.tree.map(take)};
}

function stamp(previous: PlanObject | undefined, next: PlanObject, before: ReadonlyMap<string, NodeTiming> | undefined, now: number) {
	const transitions: SeenTransition[] = [];
	const timings = stampTimings(previous, next, before, now, t => transitions.push(t));
	return {timings, transitions};
}

describe('stampTimings', () => {
	test('a node kept by identity is not read: one step of 500 moving on reads that step, its neighbour, their phase and plan', () => {
		const reads = new Map<string, number>();
		const first = counted(big(250), reads);
		const {timings: before} = stamp(undefined, first, undefined, 1000);
		const changed = new Set(['step-250', 'step-251']);
		const next = keeping(big(251), first, id => id.startsWith('plan:deploy/phase:all/step:') && !changed.has(id.split(':').at(-1)!));
		reads.clear();
		const {timings, transitions} = stamp(first, next, before, 2000);
		const readIds = [...reads.keys()].map(id => id.split('/').at(-1));
		// The previous step-250 and step-251 (their old status), the previous phase and plan (their children lists).
		expect(readIds.sort()).toEqual(['phase:all', 'plan:deploy', 'step:step-250', 'step:step-251']);
		expect(transitions.map(t => `${t.path.join('/')} ${t.from}→${t.to}`)).toEqual([
			'deploy/all/step-250 IN_PROGRESS→COMPLETE',
			'deploy/all/step-251 PENDING→IN_PROGRESS',
		]);
		expect(timings.get('plan:deploy/phase:all/step:step-251')?.startedAt).toBe(2000);
	});

	test('the same timings and transitions as when no node is kept (every node compared by its fields)', () => {
		const sequence = [big(3), big(4), big(4, i => (i < 4 ? 'COMPLETE' : i === 4 ? 'ERROR' : 'PENDING')), big(5), big(499), big(0)];
		let keptPrevious: PlanObject | undefined;
		let freshPrevious: PlanObject | undefined;
		let keptTimings: ReadonlyMap<string, NodeTiming> | undefined;
		let freshTimings: ReadonlyMap<string, NodeTiming> | undefined;
		for (const [i, object] of sequence.entries()) {
			const now = 1000 * (i + 1);
			// Kept: every node whose fields and children are as before is the previous object (what the store hands over).
			const kept = keptPrevious ? keeping(object, keptPrevious, id => sameNode(find(object, id), find(keptPrevious!, id))) : object;
			const fresh = structuredClone(object);
			const a = stamp(keptPrevious, kept, keptTimings, now);
			const b = stamp(freshPrevious, fresh, freshTimings, now);
			expect(a.timings).toStrictEqual(b.timings);
			expect(a.transitions).toStrictEqual(b.transitions);
			keptPrevious = kept;
			freshPrevious = fresh;
			keptTimings = a.timings;
			freshTimings = b.timings;
		}
	});

	test('a node object that comes back from an older adaptation (shared nodes) is worked out again, its earliest start too', () => {
		const object = (tree: PlanNode[]): PlanObject => ({
			kind: 'Instance', namespace: 'ns', name: 'x', outcome: 'running', summary: '', state: 'running', status: 'IN_PROGRESS',
			wait: {kind: 'Instance', scheduledPlan: '', scheduledUid: '', planUids: {}, queued: false},
			tree,
		});
		const node = (id: string, state: PlanNode['state'], extra: Partial<PlanNode> = {}): PlanNode => ({id, kind: 'step', name: id, status: state, state, children: [], ...extra});
		// The same step object in the first and third adaptation: running, first seen at 1000; in between it ran again
		// from 500 to 600, so in the third it started (again) at 3000.
		const step = node('s', 'running');
		const first = object([node('p', 'pending', {kind: 'phase', children: [step]})]);
		const second = object([node('p', 'pending', {kind: 'phase', children: [node('s', 'succeeded', {startedAt: '1970-01-01T00:00:00.500Z', endedAt: '1970-01-01T00:00:00.600Z'})]})]);
		// A new running parent first seen now: it started no later than its step, at 3000 (not the step's first 1000).
		const third = object([node('q', 'running', {kind: 'phase', children: [step]})]);
		const a = stamp(undefined, first, undefined, 1000);
		const b = stamp(first, second, a.timings, 2000);
		const c = stamp(second, third, b.timings, 3000);
		expect(c.timings.get('s')).toStrictEqual({startedAt: 3000});
		expect(c.timings.get('q')).toStrictEqual({startedAt: 3000, atLeast: true});
	});
});

function find(object: PlanObject, id: string): PlanNode | undefined {
	const visit = (nodes: readonly PlanNode[]): PlanNode | undefined => {
		for (const n of nodes) {
			const found = n.id === id ? n : visit(n.children);
			if (found) {
				return found;
			}
		}

		return undefined;
	};

	return visit(object.tree);
}

function sameNode(a: PlanNode | undefined, b: PlanNode | undefined): boolean {
	return a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b);
}
