import {expect, it} from 'vitest';
import {RunTracker} from '../../source/history/run-tracker.js';
import {bigPlanInstance} from '../helpers/big-plan.js';
import {adaptInstance} from '../../source/model/adapt-kudo-instance.js';
import type {PlanNode, PlanObject} from '../../source/model/plan-tree.js';

function big(running: number, previous?: readonly PlanNode[]): PlanObject {
	const raw = bigPlanInstance(running, {steps: 500, namespace: 'ns', metadata: {uid: 'u'}, planUid: 'r'});
	return adaptInstance(raw, undefined, previous ? {previous} : {});
}

it('an update of one step of a 500-step plan reads none of the steps kept by identity', () => {
	const reads = new Map<string, number>();
	const counting = (node: PlanNode): PlanNode => new Proxy(node, {
		get(target, field, receiver) {
			reads.set(node.id, (reads.get(node.id) ?? 0) + 1);
			return Reflect.get(target, field, receiver) as unknown;
		},
	});
	const plain = big(250);
	const phase = plain.tree[0]!.children[0]!;
	const first: PlanObject = {...plain, tree: [{...plain.tree[0]!, children: [{...phase, children: phase.children.map(counting)}]}]};
	// The adapter reuses the steps that did not change: the same (counting) objects.
	const next = big(251, first.tree);
	expect(next.tree[0]!.children[0]!.children.filter((step, i) => step === first.tree[0]!.children[0]!.children[i])).toHaveLength(498);
	const tracker = new RunTracker();
	tracker.observe({objects: [first], timings: new Map()});
	reads.clear();
	expect(tracker.observe({objects: [next], timings: new Map()})).toEqual([]);
	expect([...reads.keys()].map(id => id.split(':').at(-1)).sort()).toEqual(['step-250', 'step-251']);
});
