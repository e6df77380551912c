import type {ResourceKind} from '../core/kube-object.js';

/** Where a resource lives in the API, and which product installs it. */
export type ResourceType = {
	/** Namespace: only listed, for completion's `-n <TAB>`; planwatch watches the other kinds. */
	readonly kind: ResourceKind | 'Namespace';
	/** API group; '' for the core group. */
	readonly group: string;
	readonly version: string;
	readonly plural: string;
	/** The operator whose CRDs define it; undefined for core resources. */
	readonly product?: 'KUDO' | 'Kanister';
};

export const resourceTypes: Readonly<Record<ResourceKind, ResourceType>> = {
	Instance: {kind: 'Instance', group: 'kudo.dev', version: 'v1beta1', plural: 'instances', product: 'KUDO'},
	OperatorVersion: {kind: 'OperatorVersion', group: 'kudo.dev', version: 'v1beta1', plural: 'operatorversions', product: 'KUDO'},
	ActionSet: {kind: 'ActionSet', group: 'cr.kanister.io', version: 'v1alpha1', plural: 'actionsets', product: 'Kanister'},
	Blueprint: {kind: 'Blueprint', group: 'cr.kanister.io', version: 'v1alpha1', plural: 'blueprints', product: 'Kanister'},
	Event: {kind: 'Event', group: '', version: 'v1', plural: 'events'},
	Pod: {kind: 'Pod', group: '', version: 'v1', plural: 'pods'},
	Deployment: {kind: 'Deployment', group: 'apps', version: 'v1', plural: 'deployments'},
	StatefulSet: {kind: 'StatefulSet', group: 'apps', version: 'v1', plural: 'statefulsets'},
	Job: {kind: 'Job', group: 'batch', version: 'v1', plural: 'jobs'},
};

/** Core namespaces, which `-n <TAB>` lists as `kubectl get -n <TAB>` does. */
export const namespaceType: ResourceType = {kind: 'Namespace', group: '', version: 'v1', plural: 'namespaces'};

/** `actionsets.cr.kanister.io`, or just `events` for the core group (how kubectl and RBAC name them). */
export function qualifiedName(type: ResourceType): string {
	return type.group ? `${type.plural}.${type.group}` : type.plural;
}

/** Collection path, namespaced when `namespace` is set (all namespaces otherwise). */
export function collectionPath(type: ResourceType, namespace: string | undefined): string {
	const base = type.group ? `/apis/${type.group}/${type.version}` : `/api/${type.version}`;
	const ns = namespace === undefined ? '' : `/namespaces/${encodeURIComponent(namespace)}`;
	return `${base}${ns}/${type.plural}`;
}
