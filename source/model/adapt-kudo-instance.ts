import type {KubeObject} from '../kube/object-source.js';
import type {PlanObject} from './plan-tree.js';

/** Instance (+ its OperatorVersion when known) → PlanObject. */
export function adaptInstance(instance: KubeObject, operatorVersion?: KubeObject): PlanObject {
	throw new Error(`not implemented ${String(instance.kind)} ${String(operatorVersion?.kind)}`);
}
