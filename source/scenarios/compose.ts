/** Putting scenarios together: definitions, play order, time shifts and combinations (the tour). */
import {resourceOf, type KubeObject} from '../core/kube-object.js';
import type {PlayContext, Scenario, ScenarioStep} from './scenario.js';

/** Create steps at 0 for OperatorVersions and Blueprints: they exist before anything runs. */
export function definitions(...objects: KubeObject[]): ScenarioStep[] {
	return objects.map(object => {
		const resource = resourceOf(object);
		if (resource !== 'OperatorVersion' && resource !== 'Blueprint') {
			throw new Error(`not a definition: ${String(object.kind)}`);
		}

		return {at: 0, op: 'create', resource, object};
	});
}

function isDefinition(step: ScenarioStep): boolean {
	return step.op === 'create' && (step.resource === 'OperatorVersion' || step.resource === 'Blueprint');
}

function definitionKey(step: ScenarioStep): string {
	const object = typeof step.object === 'function' ? undefined : step.object;
	return `${step.resource}/${object?.metadata?.name ?? ''}`;
}

/**
 * A scenario from step lists: stable-sorted by `at` (equal times keep their order, e.g. spec before status),
 * shared definitions created once.
 */
export function scenario(meta: Omit<Scenario, 'objects'>, ...lists: ReadonlyArray<readonly ScenarioStep[]>): Scenario {
	const seen = new Set<string>();
	const steps: ScenarioStep[] = [];
	for (const step of lists.flat()) {
		if (isDefinition(step)) {
			const key = definitionKey(step);
			if (seen.has(key)) {
				continue;
			}

			seen.add(key);
		}

		steps.push(step);
	}

	const objects = steps.map((step, i) => ({step, i})).sort((a, b) => a.step.at - b.step.at || a.i - b.i).map(({step}) => step);
	return {...meta, objects};
}

/** The same steps `offsetMs` later; definitions stay at their time (they pre-exist). Builders see shifted times. */
export function shift(steps: readonly ScenarioStep[], offsetMs: number): ScenarioStep[] {
	return steps.map(step => {
		if (isDefinition(step)) {
			return step;
		}

		const {object} = step;
		const moved = typeof object === 'function'
			? (ctx: PlayContext) => object({...ctx, at: (ms: number) => ctx.at(ms + offsetMs)})
			: object;
		return {...step, at: step.at + offsetMs, object: moved};
	});
}

/** Several scenarios played together, each starting at its offset. */
export function combine(
	meta: Omit<Scenario, 'objects'>,
	parts: ReadonlyArray<{readonly scenario: Scenario; readonly offsetMs: number}>,
): Scenario {
	return scenario(meta, ...parts.map(part => shift(part.scenario.objects, part.offsetMs)));
}
