/**
 * `planwatch demo`: an embedded simulated cluster playing scenarios. It emits exactly what a cluster source
 * emits (connection live, one `replace` per resource, `synced`, then upserts and deletes), so the store and
 * views cannot tell the difference. All timing goes through the injected Clock.
 */
import type {ObjectSource, SourceEvent, SourceSink} from '../state/object-source.js';
import type {Clock} from '../core/clock.js';
import {isWorkloadKind} from '../core/kube-object.js';
import {scenario} from '../scenarios/compose.js';
import {dueAt, logOf, materialize, playContext, type PlayContext, type Scenario, type ScenarioStep} from '../scenarios/scenario.js';
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

/** Plays the scenarios on a SimulatedCluster in rounds (one, or one after another with `loop`). */
export class DemoSource implements ObjectSource {
	readonly label = 'demo';
	readonly scope: string;
	readonly #clock: Clock;
	readonly #speed: number;
	readonly #loop: boolean;
	readonly #loopPauseMs: number;
	readonly #steps: readonly ScenarioStep[];
	#sink: SourceSink | undefined;
	#timers: Array<() => void> = [];
	#cluster: SimulatedCluster | undefined;
	#firstVersion = 1000;

	constructor(options: DemoSourceOptions) {
		const speed = options.speed ?? 1;
		if (!(speed > 0) || !Number.isFinite(speed)) {
			throw new RangeError(`speed must be a positive number, got ${speed}`);
		}

		this.#clock = options.clock;
		this.#speed = speed;
		this.#loop = options.loop ?? false;
		this.#loopPauseMs = options.loopPauseMs ?? defaultLoopPauseMs;
		this.scope = options.namespace ?? demoNamespace;
		this.#steps = scenario({name: 'demo', title: '', description: ''}, ...options.scenarios.map(s => s.objects)).objects;
	}

	start(sink: SourceSink): void {
		this.#sink = sink;
		this.#emit({type: 'connection', state: {status: 'live'}});
		this.#beginRound(true);
	}

	stop(): void {
		this.#sink = undefined;
		this.#cancelTimers();
	}

	#emit(event: SourceEvent): void {
		this.#sink?.(event);
	}

	#report(change: ClusterChange | undefined): void {
		if (change) {
			this.#emit({type: change.type, resource: change.resource, object: change.object});
		}
	}

	#applyStep(cluster: SimulatedCluster, ctx: PlayContext, step: ScenarioStep): ClusterChange | undefined {
		if (step.op === 'log') {
			// What a follow of the pod's log (pods/log) would read; recorded and replayed like the cluster's.
			this.#emit({type: 'log', ...logOf(materialize(step, ctx))});
			return undefined;
		}

		try {
			return cluster.apply(step, ctx);
		} catch {
			// A step the data got wrong (the scenario tests catch these); the demo keeps playing.
			return undefined;
		}
	}

	#cancelTimers(): void {
		for (const cancel of this.#timers) {
			cancel();
		}

		this.#timers = [];
	}

	#beginRound(initial: boolean): void {
		this.#cancelTimers();
		const clock = this.#clock;
		const namespace = this.scope;
		// Keep resourceVersions increasing across rounds, as a real cluster would.
		const cluster = new SimulatedCluster({now: () => clock.now(), firstResourceVersion: this.#firstVersion});
		this.#firstVersion += 1_000_000;
		const startMs = clock.now();
		const ctx = playContext({namespace, startMs, speed: this.#speed, now: () => clock.now()});
		this.#cluster = cluster;
		// Steps at or before 0 describe the cluster as found when connecting: they belong to the first list.
		const present = this.#steps.filter(step => step.at <= 0).map(step => this.#applyStep(cluster, ctx, step));
		if (initial) {
			for (const resource of clusterResources) {
				// Pods and applied objects are listed by a cluster source only for nodes on screen: none at the start.
				if (!isWorkloadKind(resource) || cluster.list(resource).length > 0) {
					this.#emit({type: 'replace', resource, namespace, objects: cluster.list(resource)});
				}
			}

			this.#emit({type: 'synced'});
		} else {
			for (const change of present) {
				this.#report(change);
			}
		}

		this.#schedule(cluster, ctx, startMs);
	}

	/** One timer per instant, each measured from the round start, so delays never add up. */
	#schedule(cluster: SimulatedCluster, ctx: PlayContext, startMs: number): void {
		const batches = stepBatches(this.#steps, startMs, this.#speed);
		const last = Math.max(startMs, ...batches.keys());
		for (const [due, batch] of batches) {
			this.#timers.push(this.#clock.after(due - startMs, () => {
				for (const step of batch) {
					this.#report(this.#applyStep(cluster, ctx, step));
				}

				if (due === last && this.#loop && this.#sink) {
					this.#timers = [this.#clock.after(this.#loopPauseMs, this.#restart)];
				}
			}));
		}

		if (batches.size === 0 && this.#loop) {
			this.#timers.push(this.#clock.after(this.#loopPauseMs, this.#restart));
		}
	}

	readonly #restart = (): void => {
		for (const change of this.#cluster?.clear() ?? []) {
			this.#report(change);
		}

		this.#beginRound(false);
	};
}

/** The steps after the start, grouped by the clock time they are due at. */
function stepBatches(steps: readonly ScenarioStep[], startMs: number, speed: number): Map<number, ScenarioStep[]> {
	const batches = new Map<number, ScenarioStep[]>();
	for (const step of steps.filter(step => step.at > 0)) {
		const due = dueAt(step, startMs, speed);
		batches.set(due, [...(batches.get(due) ?? []), step]);
	}

	return batches;
}

export function createDemoSource(options: DemoSourceOptions): ObjectSource {
	return new DemoSource(options);
}
