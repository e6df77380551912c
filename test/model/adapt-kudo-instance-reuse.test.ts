import {describe, expect, test} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {adaptInstance} from '../../source/model/adapt-kudo-instance.js';
import type {PlanNode} from '../../source/model/plan-tree.js';
import {seededRandom} from '../helpers/random-strings.js';

/** A serial plan `deploy` of phases × steps; `status(phase, step)` of each listed step (undefined: not listed). */
function instance(
	phases: readonly string[][],
	status: (phase: number, step: number) => {status: string; message?: string} | undefined,
	planStatus = 'IN_PROGRESS',
): KubeObject {
	return {
		apiVersion: 'kudo.dev/v1beta1',
		kind: 'Instance',
		metadata: {name: 'big', namespace: 'ns', uid: 'u1', creationTimestamp: '2026-11-30T11:00:00Z'},
		spec: {operatorVersion: {name: 'big-0.1.0'}},
		status: {
			planStatus: {
				deploy: {
					name: 'deploy',
					status: planStatus,
					uid: 'run-1',
					phases: phases.map((steps, p) => ({
						name: `phase-${p}`,
						status: 'IN_PROGRESS',
						steps: steps.flatMap((name, s) => {
							const st = status(p, s);
							return st ? [{name, ...st}] : [];
						}),
					})),
				},
			},
		},
	};
}

function operatorVersion(phases: readonly string[][]): KubeObject {
	return {
		apiVersion: 'kudo.dev/v1beta1',
		kind: 'OperatorVersion',
		metadata: {name: 'big-0.1.0', namespace: 'ns'},
		spec: {plans: {deploy: {strategy: 'serial', phases: phases.map((steps, p) => ({name: `phase-${p}`, strategy: 'serial', steps: steps.map(name => ({name}))}))}}},
	};
}

function nodes(tree: readonly PlanNode[]): PlanNode[] {
	return tree.flatMap(n => [n, ...nodes(n.children)]);
}

const steps500 = [Array.from({length: 500}, (_, i) => `step-${String(i).padStart(3, '0')}`)];
const at = (running: number) => (_: number, s: number) => ({status: s < running ? 'COMPLETE' : s === running ? 'IN_PROGRESS' : 'PENDING'});

describe('adaptInstance with the last adaptation (previous)', () => {
	test('one step of a 500-step plan moving on builds that step, the next, their phase and plan; the rest are the nodes they were', () => {
		const ov = operatorVersion(steps500);
		const first = adaptInstance(instance(steps500, at(250)), ov);
		const next = adaptInstance(instance(steps500, at(251)), ov, {previous: first.tree});
		const before = new Set(nodes(first.tree));
		const built = nodes(next.tree).filter(n => !before.has(n));
		expect(built.map(n => n.name)).toEqual(['deploy', 'phase-0', 'step-250', 'step-251']);
		// And equal to what an adaptation without it gives.
		expect(next).toStrictEqual(adaptInstance(instance(steps500, at(251)), ov));
	});

	test('nothing changed: the very tree of the last adaptation', () => {
		const ov = operatorVersion(steps500);
		const first = adaptInstance(instance(steps500, at(10)), ov);
		expect(adaptInstance(instance(steps500, at(10)), ov, {previous: first.tree}).tree).toBe(first.tree);
	});

	test('whatever changed, the tree equals a fresh adaptation (random runs of statuses, messages, names, listing, plan status)', () => {
		const statuses = ['PENDING', 'IN_PROGRESS', 'COMPLETE', 'ERROR', 'FATAL_ERROR', 'NEVER_RUN', ''];
		for (let seed = 1; seed <= 40; seed++) {
			const random = seededRandom(seed);
			const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
			// Repeated names among siblings get #2 ids; a name with / or % is escaped in its id.
			const names = ['a', 'b', 'a', 'c/d', 'e%f', 'g#h', 'b', 'i'];
			let phases = [names.slice(0, 5), names.slice(2)];
			let state = phases.map(steps => steps.map(() => ({status: pick(statuses), message: pick(['', 'm1', 'm2']), listed: true})));
			let planStatus = 'IN_PROGRESS';
			let previous: readonly PlanNode[] | undefined;
			for (let round = 0; round < 12; round++) {
				const ov = operatorVersion(phases);
				const raw = instance(phases, (p, s) => {
					const st = state[p]![s]!;
					return st.listed ? {status: st.status, ...(st.message ? {message: st.message} : {})} : undefined;
				}, planStatus);
				const reused = adaptInstance(raw, ov, previous === undefined ? {} : {previous});
				expect(reused, `seed ${seed} round ${round}`).toStrictEqual(adaptInstance(raw, ov));
				previous = reused.tree;
				// Change a few things for the next round.
				for (let k = 0; k < 3; k++) {
					const p = Math.floor(random() * phases.length);
					const s = Math.floor(random() * phases[p]!.length);
					const st = state[p]![s]!;
					const what = random();
					state[p]![s] = what < 0.5 ? {...st, status: pick(statuses)} : what < 0.8 ? {...st, message: pick(['', 'm1', 'm2'])} : {...st, listed: !st.listed};
				}

				if (random() < 0.2) {
					planStatus = pick(['IN_PROGRESS', 'COMPLETE', 'FATAL_ERROR', 'ERROR']);
				}

				if (random() < 0.15) {
					// A step renamed or added: ids and places move.
					phases = phases.map((steps, p) => (p === 0 ? [...steps.slice(1), pick(names)] : steps));
					state = phases.map((steps, p) => steps.map((_, s) => state[p]![s] ?? {status: 'PENDING', message: '', listed: true}));
				}
			}
		}
	});
});
