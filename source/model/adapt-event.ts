import type {KubeObject} from '../kube/object-source.js';
import type {PlanEvent} from './plan-tree.js';

/** core/v1 (or events.k8s.io/v1) Event → PlanEvent, sanitized; undefined when it is not an event. */
export function adaptEvent(event: KubeObject): PlanEvent | undefined {
	throw new Error(`not implemented ${String(event.kind)}`);
}
