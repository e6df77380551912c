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
