/**
 * Play a scenario against the cluster while planwatch watches it: the player (harness/scenario-player.ts) runs
 * the timeline; at the step where a user would start planwatch (the object exists and something is scheduled),
 * the test's `launch` starts one or more CLI processes and the player waits until they are ready (synced and
 * showing something) before it continues, so every CLI sees the run from its start. `at(index)` hooks let a
 * test inject a fault between two steps while the player is paused.
 */
import {randomBytes} from 'node:crypto';
import type {KubeObject} from '../../../source/core/kube-object.js';
import {findScenario} from '../../../source/scenarios/catalog.js';
import {materialize, playContext, type Scenario, type ScenarioStep} from '../../../source/scenarios/scenario.js';
import {playScenario, type PlayedScenario} from './scenario-player.js';

export function scenarioNamed(name: string): Scenario {
	const scenario = findScenario(name);
	if (!scenario) {
		throw new Error(`no scenario named ${name}`);
	}

	return scenario;
}

/** A namespace name nobody used before (namespaces never finish deleting here: no controller-manager). */
export function freshNamespace(prefix: string): string {
	return `${prefix.slice(0, 40)}-${randomBytes(3).toString('hex')}`.toLowerCase();
}

function stepObject(step: ScenarioStep): KubeObject {
	// Only for reading names/spec of a step: the namespace and times do not matter.
	return materialize(step, playContext({namespace: 'x', startMs: 0, speed: 1, now: () => 0}));
}

/**
 * Index of the step after which a user would start `planwatch --wait`: an Instance that has a plan scheduled
 * (created by an install, or updated by a trigger), or a created ActionSet. With `name`, only that object;
 * without, the last such step (every object of the scenario exists by then).
 */
export function launchIndex(scenario: Scenario, name?: string): number {
	let found = -1;
	for (const [index, step] of scenario.objects.entries()) {
		const object = stepObject(step);
		if (name !== undefined && object.metadata?.name !== name) {
			continue;
		}

		const scheduled = Boolean((object['spec'] as {planExecution?: {planName?: string}} | undefined)?.planExecution?.planName);
		const startsSomething = (step.resource === 'Instance' && ((step.op === 'create' && scheduled) || step.op === 'update'))
			|| (step.resource === 'ActionSet' && step.op === 'create');
		if (startsSomething) {
			found = index;
			if (name !== undefined) {
				break;
			}
		}
	}

	if (found === -1) {
		throw new Error(`scenario ${scenario.name}: no step starts ${name ?? 'anything'}`);
	}

	return found;
}

/** Index of the last `status` step of `name` (its final state). */
export function lastStatusIndex(scenario: Scenario, name: string): number {
	let found = -1;
	for (const [index, step] of scenario.objects.entries()) {
		if (step.op === 'status' && stepObject(step).metadata?.name === name) {
			found = index;
		}
	}

	return found;
}

/** Indexes of the `status` steps of `name`. */
export function statusIndexes(scenario: Scenario, name: string): number[] {
	return scenario.objects.flatMap((step, index) => (step.op === 'status' && stepObject(step).metadata?.name === name ? [index] : []));
}

export type WatchedPlay = {
	readonly played: PlayedScenario;
	/** When each step had been applied (Date.now()), by index. */
	readonly appliedAt: ReadonlyMap<number, number>;
};

export type PlayOptions = {
	readonly kubeconfig: string;
	readonly namespace: string;
	readonly speed: number;
	/** After this step index, call `launch` and wait for it. */
	readonly launchAfter: number;
	readonly launch: () => Promise<void>;
	/** Hooks run after the step with that index was applied (the player waits for them). */
	readonly at?: Readonly<Record<number, () => Promise<void>>>;
	readonly signal?: AbortSignal;
};

export async function playWatched(scenario: Scenario, options: PlayOptions): Promise<WatchedPlay> {
	const appliedAt = new Map<number, number>();
	const played = await playScenario(scenario, {
		kubeconfig: options.kubeconfig,
		namespace: options.namespace,
		speed: options.speed,
		signal: options.signal,
		onStep: async ({index}) => {
			appliedAt.set(index, Date.now());
			if (index === options.launchAfter) {
				await options.launch();
			}

			await options.at?.[index]?.();
		},
	});
	return {played, appliedAt};
}
