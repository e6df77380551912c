import {describe, expect, it} from 'vitest';
import {adaptActionSet} from '../../source/model/adapt-kanister-action-set.js';
import {adaptInstance} from '../../source/model/adapt-kudo-instance.js';
import type {PlanNode} from '../../source/model/plan-tree.js';
import {SharedNodes} from '../../source/model/shared-nodes.js';
import {loadFixtureObject} from '../helpers/fixtures.js';

function leaf(id: string, extra: Partial<PlanNode> = {}): PlanNode {
	return {id, kind: 'step', name: id, status: 'COMPLETE', state: 'succeeded', children: [], ...extra};
}

function walk(nodes: readonly PlanNode[], visit: (node: PlanNode) => void): void {
	for (const node of nodes) {
		visit(node);
		walk(node.children, visit);
	}
}

describe('SharedNodes', () => {
	it('two adaptations of equal objects share every node, and the trees stay equal to what was adapted', () => {
		const nodes = new SharedNodes();
		const raw = loadFixtureObject('kudo/instance-zookeeper-deploy-complete.yaml');
		const ov = loadFixtureObject('kudo/operatorversion-zookeeper.yaml');
		const a = adaptInstance(structuredClone(raw), ov).tree;
		const b = adaptInstance(structuredClone(raw), ov).tree;
		expect(a[0]).not.toBe(b[0]);
		const sharedA = nodes.share(a);
		const sharedB = nodes.share(b);
		expect(sharedA).toStrictEqual(a);
		expect(sharedB).toStrictEqual(b);
		const seenA: PlanNode[] = [];
		const seenB: PlanNode[] = [];
		walk(sharedA, n => seenA.push(n));
		walk(sharedB, n => seenB.push(n));
		expect(seenB.length).toBeGreaterThan(5);
		expect(seenB.every((n, i) => n === seenA[i])).toBe(true);
		expect(nodes.size).toBe(seenA.length);
	});

	it('a node that differs in any field, or in a child, is its own', () => {
		const nodes = new SharedNodes();
		const [base] = nodes.share([leaf('a')]);
		expect(nodes.share([leaf('a')])[0]).toBe(base);
		for (const other of [leaf('a', {status: 'IN_PROGRESS'}), leaf('a', {percent: 50}), leaf('a', {note: 'x'}), leaf('a', {active: false}), leaf('a', {message: undefined})]) {
			const [shared] = nodes.share([other]);
			expect(shared).not.toBe(base);
			expect(shared).toStrictEqual(other);
		}

		// A number and its text are different values.
		expect(nodes.share([leaf('a', {percent: 5})])[0]).not.toBe(nodes.share([leaf('a', {note: '5'})])[0]);
		const parent = (child: PlanNode): PlanNode => ({...leaf('p'), kind: 'phase', children: [child]});
		const [p1] = nodes.share([parent(leaf('a'))]);
		const [p2] = nodes.share([parent(leaf('a', {status: 'ERROR'}))]);
		expect(p1).not.toBe(p2);
		expect(p1!.children[0]).toBe(base);
		expect(nodes.share([parent(leaf('a'))])[0]).toBe(p1);
	});

	it('stays within its limit and keeps sharing after it starts again', () => {
		const nodes = new SharedNodes(3);
		for (let i = 0; i < 10; i++) {
			nodes.share([leaf(`n${i}`)]);
			expect(nodes.size).toBeLessThanOrEqual(3);
		}

		const [first] = nodes.share([leaf('x')]);
		expect(nodes.share([leaf('x')])[0]).toBe(first);
	});

	it('leaves a big tree as it is (its keys would cost more than sharing saves)', () => {
		const nodes = new SharedNodes();
		const big = [{...leaf('plan'), kind: 'plan' as const, children: Array.from({length: 300}, (_, i) => leaf(`s${i}`))}];
		expect(nodes.share(big)).toBe(big);
		expect(nodes.size).toBe(0);
		const small = [{...leaf('plan'), kind: 'plan' as const, children: Array.from({length: 30}, (_, i) => leaf(`s${i}`))}];
		expect(nodes.share(small)).not.toBe(small);
		expect(nodes.size).toBe(31);
	});

	it('ActionSets of one Blueprint that finished alike share their deferPhase and phase nodes', () => {
		const nodes = new SharedNodes();
		const raw = loadFixtureObject('kanister/actionset-mysql-backup-complete.yaml');
		const blueprint = loadFixtureObject('kanister/blueprint-mysql-defer.yaml');
		const adapt = (name: string) => adaptActionSet({...structuredClone(raw), metadata: {...raw.metadata, name}}, () => blueprint, []);
		const [a] = nodes.share(adapt('one').tree);
		const [b] = nodes.share(adapt('two').tree);
		expect(b).toBe(a);
	});

	it('phases that output different values (and actions with different artifacts) stay apart', () => {
		const nodes = new SharedNodes();
		const raw = loadFixtureObject('kanister/actionset-mysql-backup-complete.yaml');
		const blueprint = loadFixtureObject('kanister/blueprint-mysql-defer.yaml');
		const withPath = (p: string) => {
			const copy = structuredClone(raw);
			const action = (copy['status'] as {actions: Array<{phases: Array<{output: unknown}>; artifacts: unknown}>}).actions[0]!;
			action.phases[0]!.output = {s3path: p};
			action.artifacts = {dump: {keyValue: {s3path: p}}};
			return adaptActionSet(copy, () => blueprint, []);
		};

		const [a] = nodes.share(withPath('/one').tree);
		const [b] = nodes.share(withPath('/two').tree);
		const [c] = nodes.share(withPath('/one').tree);
		expect(b!.children[0]!.output?.values).toEqual({s3path: '/two'});
		expect(b!.artifacts?.values).toEqual({dump: {keyValue: {s3path: '/two'}}});
		expect(c).toBe(a);
	});
});

describe('a plan too big for the table', () => {
	/** One plan, one phase, 500 steps; step `running` runs (with `message`), the ones before it are done. */
	const plan = (running: number, message?: string): PlanNode[] => {
		const steps = Array.from({length: 500}, (_, i) =>
			leaf(`plan:deploy/phase:all/step:s${i}`, i < running ? {} : i === running
				? {status: 'IN_PROGRESS', state: 'running', ...(message ? {message} : {})}
				: {status: 'PENDING', state: 'pending'}));
		const phase = {...leaf('plan:deploy/phase:all', {kind: 'phase', status: 'IN_PROGRESS', state: 'running'}), children: steps};
		return [{...leaf('plan:deploy', {kind: 'plan', status: 'IN_PROGRESS', state: 'running', active: true}), children: [phase]}];
	};

	it('keeps the nodes that did not change since its last adaptation; the changed ones and their ancestors are new', () => {
		const nodes = new SharedNodes();
		const first = nodes.share(plan(10));
		const next = nodes.share(plan(11), first);
		const steps = (tree: readonly PlanNode[]) => tree[0]!.children[0]!.children;
		expect(next[0]).not.toBe(first[0]);
		expect(steps(next)[10]).not.toBe(steps(first)[10]);
		expect(steps(next)[11]).not.toBe(steps(first)[11]);
		expect(steps(next)[11]!.state).toBe('running');
		const kept = steps(next).filter((step, i) => step === steps(first)[i]).length;
		expect(kept).toBe(498);
		// Nothing changed: the previous tree itself.
		expect(nodes.share(plan(11), next)).toBe(next);
		// Without a previous adaptation, and in the table's own size, nothing is kept across calls by id.
		expect(steps(nodes.share(plan(11)))[0]).not.toBe(steps(next)[0]);
	});

	it('a node that already is the previous one (the adapter kept it) is not read', () => {
		const nodes = new SharedNodes();
		const reads = new Map<string, number>();
		// Fields but the children list: telling a big tree from a small one counts up to 200 nodes (a bound, not the plan's size).
		const count = (node: PlanNode): PlanNode => new Proxy(node, {
			get(target, field, receiver) {
				if (field !== 'children') {
					reads.set(node.id, (reads.get(node.id) ?? 0) + 1);
				}

				return Reflect.get(target, field, receiver) as unknown;
			},
		});
		const first = plan(10);
		const phase = first[0]!.children[0]!;
		const steps = phase.children.map(count);
		const previous = [{...first[0]!, children: [{...phase, children: steps}]}];
		// The adapter's output: steps 10 and 11 new, the other 498 the previous step objects.
		const fresh = plan(11)[0]!.children[0]!.children;
		const next = [{...plan(11)[0]!, children: [{...phase, children: steps.map((step, i) => (i === 10 || i === 11 ? fresh[i]! : step))}]}];
		reads.clear();
		const kept = nodes.share(next, previous);
		expect([...reads.keys()].sort()).toEqual(['plan:deploy/phase:all/step:s10', 'plan:deploy/phase:all/step:s11']);
		expect(kept[0]!.children[0]!.children.filter((step, i) => step === steps[i])).toHaveLength(498);
	});

	it('a change of any field of a node (a value field too) makes it new', () => {
		const nodes = new SharedNodes();
		const first = nodes.share(plan(10));
		const changed = nodes.share(plan(10, 'waiting'), first);
		expect(changed[0]!.children[0]!.children[10]!.message).toBe('waiting');
		expect(changed[0]!.children[0]!.children[9]).toBe(first[0]!.children[0]!.children[9]);
		const output = (tree: readonly PlanNode[], value: string): PlanNode[] =>
			[{...tree[0]!, children: [{...tree[0]!.children[0]!, output: {values: {s3path: value}}}]}];
		const withOutput = nodes.share(output(plan(10), '/one'), first);
		expect(nodes.share(output(plan(10), '/one'), withOutput)).toBe(withOutput);
		expect(nodes.share(output(plan(10), '/two'), withOutput)[0]!.children[0]!.output).toEqual({values: {s3path: '/two'}});
	});
});
