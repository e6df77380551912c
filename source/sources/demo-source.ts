/**
 * `planwatch demo`: an embedded simulated cluster playing scenarios. It emits exactly what a cluster source
 * emits (connection live, one `replace` per resource, `synced`, then upserts and deletes), so the store and
 * views cannot tell the difference. All timing goes through the injected Clock.
 */
import type {ObjectSource, SourceEvent, SourceSink} from '../state/object-source.js';
import type {Clock} from '../core/clock.js';
import {scenario} from '../scenarios/compose.js';
import {dueAt, playContext, type PlayContext, type Scenario, type ScenarioStep} from '../scenarios/scenario.js';
import {clusterResources, SimulatedCluster, type ClusterChange} from '../scenarios/simulated-cluster.js';

export type DemoSourceOptions = {
	/** Played together, all starting at once (shared definitions are created once). */
	readonly scenarios: readonly Scenario[];
	readonly clock: Clock;
	/** 2 = twice as fast as real time. Must be > 0. */
	readonly speed?: number;
	/** When everything has played: pause, delete everything, start over. */
	readonly loop?: boolean;
	/** Namespace of every object (shown as the scope). */
	readonly namespace?: string;
	/** Pause before a loop restarts, in clock ms (not scaled by speed). */
	readonly loopPauseMs?: number;
};

export const demoNamespace = 'default';
const defaultLoopPauseMs = 5000;

export function createDemoSource(options: DemoSourceOptions): ObjectSource {
	const {clock} = options;
	const speed = options.speed ?? 1;
	if (!(speed > 0) || !Number.isFinite(speed)) {
		throw new RangeError(`speed must be a positive number, got ${speed}`);
	}

	const namespace = options.namespace ?? demoNamespace;
	const loopPauseMs = options.loopPauseMs ?? defaultLoopPauseMs;
	const steps: readonly ScenarioStep[] = scenario({name: 'demo', title: '', description: ''}, ...options.scenarios.map(s => s.objects)).objects;

	let sink: SourceSink | undefined;
	let timers: Array<() => void> = [];
	let cluster: SimulatedCluster;
	let ctx: PlayContext;
	let firstVersion = 1000;

	const emit = (event: SourceEvent) => {
		sink?.(event);
	};

	const report = (change: ClusterChange | undefined) => {
		if (change) {
			emit({type: change.type, resource: change.resource, object: change.object});
		}
	};

	const applyStep = (step: ScenarioStep): ClusterChange | undefined => {
		try {
			return cluster.apply(step, ctx);
		} catch {
			// A step the data got wrong (the scenario tests catch these); the demo keeps playing.
			return undefined;
		}
	};

	const cancelTimers = () => {
		for (const cancel of timers) {
			cancel();
		}

		timers = [];
	};

	const beginRound = (initial: boolean) => {
		cancelTimers();
		// Keep resourceVersions increasing across rounds, as a real cluster would.
		cluster = new SimulatedCluster({now: () => clock.now(), firstResourceVersion: firstVersion});
		firstVersion += 1_000_000;
		const startMs = clock.now();
		ctx = playContext({namespace, startMs, speed, now: () => clock.now()});
		// Steps at or before 0 describe the cluster as found when connecting: they belong to the first list.
		const present = steps.filter(step => step.at <= 0).map(step => applyStep(step));
		if (initial) {
			for (const resource of clusterResources) {
				emit({type: 'replace', resource, namespace, objects: cluster.list(resource)});
			}

			emit({type: 'synced'});
		} else {
			for (const change of present) {
				report(change);
			}
		}

		// One timer per instant, each measured from the round start, so delays never add up.
		const batches = new Map<number, ScenarioStep[]>();
		for (const step of steps.filter(step => step.at > 0)) {
			const due = dueAt(step, startMs, speed);
			batches.set(due, [...(batches.get(due) ?? []), step]);
		}

		const last = Math.max(startMs, ...batches.keys());
		for (const [due, batch] of batches) {
			timers.push(clock.after(due - startMs, () => {
				for (const step of batch) {
					report(applyStep(step));
				}

				if (due === last && options.loop && sink) {
					timers = [clock.after(loopPauseMs, restart)];
				}
			}));
		}

		if (batches.size === 0 && options.loop) {
			timers.push(clock.after(loopPauseMs, restart));
		}
	};

	const restart = () => {
		for (const change of cluster.clear()) {
			report(change);
		}

		beginRound(false);
	};

	return {
		label: 'demo',
		scope: namespace,
		start(s: SourceSink) {
			sink = s;
			emit({type: 'connection', state: {status: 'live'}});
			beginRound(true);
		},
		stop() {
			sink = undefined;
			cancelTimers();
		},
	};
}
