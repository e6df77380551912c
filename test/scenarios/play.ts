/**
 * Plays a scenario step by step on a SimulatedCluster driven by a FakeClock, keeping what a watcher would have
 * seen: every change, and the state of the cluster after each batch of steps due at the same time.
 */
import type {KubeObject, ResourceKind} from '../../source/core/kube-object.js';
import {dueAt, playContext, type Scenario} from '../../source/scenarios/scenario.js';
import {SimulatedCluster, type ClusterChange} from '../../source/scenarios/simulated-cluster.js';
import {FakeClock} from '../helpers/fake-clock.js';

export type Batch = {
	/** Scenario offset of the batch. */
	readonly at: number;
	/** Clock time it was played at. */
	readonly time: number;
	readonly changes: readonly ClusterChange[];
	/** `Kind/name` → object, after the batch. */
	readonly objects: ReadonlyMap<string, KubeObject>;
};

export type Played = {
	readonly batches: readonly Batch[];
	readonly cluster: SimulatedCluster;
	readonly clock: FakeClock;
	readonly namespace: string;
	/** Final object by kind and name. */
	get(resource: ResourceKind, name: string): KubeObject | undefined;
	/** Events about an object, in creation order. */
	eventsFor(kind: string, name: string): KubeObject[];
	/** Every change in play order. */
	readonly changes: readonly ClusterChange[];
};

export const testNamespace = 'scenario-test';

function snapshot(cluster: SimulatedCluster): Map<string, KubeObject> {
	const out = new Map<string, KubeObject>();
	for (const resource of ['OperatorVersion', 'Instance', 'Blueprint', 'ActionSet'] as const) {
		for (const o of cluster.list(resource)) {
			out.set(`${resource}/${o.metadata?.name ?? ''}`, o);
		}
	}

	return out;
}

export function play(scenario: Scenario, options: {speed?: number; namespace?: string} = {}): Played {
	const speed = options.speed ?? 1;
	const namespace = options.namespace ?? testNamespace;
	const clock = new FakeClock();
	const startMs = clock.now();
	const cluster = new SimulatedCluster({now: () => clock.now()});
	const ctx = playContext({namespace, startMs, speed, now: () => clock.now()});
	const batches: Batch[] = [];
	const changes: ClusterChange[] = [];
	const events: ClusterChange[] = [];
	let current: {at: number; time: number; changes: ClusterChange[]} | undefined;
	const close = () => {
		if (current) {
			batches.push({...current, objects: snapshot(cluster)});
		}
	};

	for (const step of scenario.objects) {
		const due = dueAt(step, startMs, speed);
		if (due > clock.now()) {
			clock.advance(due - clock.now());
		}

		if (current?.at !== step.at) {
			close();
			current = {at: step.at, time: clock.now(), changes: []};
		}

		const change = cluster.apply(step, ctx);
		if (change) {
			current.changes.push(change);
			changes.push(change);
			if (change.resource === 'Event') {
				events.push(change);
			}
		}
	}

	close();
	return {
		batches,
		cluster,
		clock,
		namespace,
		changes,
		get: (resource, name) => cluster.get(resource, namespace, name),
		eventsFor: (kind, name) => events.map(e => e.object).filter(e => {
			const involved = e['involvedObject'] as {kind?: string; name?: string};
			return involved.kind === kind && involved.name === name;
		}),
	};
}

/** Loose accessors for raw objects in assertions. */
export function at(value: unknown, ...path: Array<string | number>): any {
	let v: any = value;
	for (const p of path) {
		v = v?.[p];
	}

	return v;
}
