/**
 * Which raw objects an Instance or an ActionSet is drawn from besides itself: the lookup rules of KUDO and
 * Kanister, kept with the adapters that use the looked-up objects.
 */
import type {KubeObject} from '../core/kube-object.js';

/** `namespace/name`: how raw objects of one kind are keyed. */
export function namespacedName(object: KubeObject): string {
	return `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`;
}

/**
 * The `namespace/name` of the OperatorVersion a KUDO Instance runs: `spec.operatorVersion.name`, in
 * `spec.operatorVersion.namespace` when set, else in the Instance's own namespace (kudobuilder/kudo
 * pkg/apis/kudo/v1beta1, `Instance.OperatorVersionNamespace`).
 */
export function operatorVersionKey(instance: KubeObject): string {
	const spec = (instance['spec'] ?? {}) as {operatorVersion?: {name?: unknown; namespace?: unknown}};
	const ns = typeof spec.operatorVersion?.namespace === 'string' && spec.operatorVersion.namespace
		? spec.operatorVersion.namespace
		: (instance.metadata?.namespace ?? '');
	return `${ns}/${typeof spec.operatorVersion?.name === 'string' ? spec.operatorVersion.name : ''}`;
}

/** Whether a change to `operatorVersion` can change how `instance` is drawn. */
export function runsOperatorVersion(instance: KubeObject, operatorVersion: KubeObject): boolean {
	return operatorVersionKey(instance) === namespacedName(operatorVersion);
}

/**
 * The `namespace/name` of a Blueprint an ActionSet's action names: Kanister looks Blueprints up in the
 * ActionSet's own namespace (kanisterio/kanister pkg/controller/controller.go).
 */
export function blueprintKey(actionSet: KubeObject, blueprintName: string): string {
	return `${actionSet.metadata?.namespace ?? ''}/${blueprintName}`;
}

/** Whether a change to `blueprint` can change how `actionSet` is drawn (any Blueprint of its namespace can). */
export function readsBlueprintsOf(actionSet: KubeObject, blueprint: KubeObject): boolean {
	return (actionSet.metadata?.namespace ?? '') === (blueprint.metadata?.namespace ?? '');
}
