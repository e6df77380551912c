import type {KubeObject} from '../kube/object-source.js';
import type {PlanEvent, PlanObject} from './plan-tree.js';

/** ActionSet (+ Blueprints of its namespace, + its events) → PlanObject. */
export function adaptActionSet(
	actionSet: KubeObject,
	blueprint: (name: string) => KubeObject | undefined,
	events: readonly PlanEvent[],
): PlanObject {
	throw new Error(`not implemented ${String(actionSet.kind)} ${String(blueprint)} ${events.length}`);
}
