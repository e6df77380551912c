/**
 * The shape of a raw Kubernetes object and the kinds planwatch reads: a leaf every layer may use.
 */

/** A raw Kubernetes object as decoded from JSON/YAML. Untrusted. */
export type KubeObject = {
	apiVersion?: string;
	kind?: string;
	metadata?: {
		name?: string;
		namespace?: string;
		uid?: string;
		resourceVersion?: string;
		creationTimestamp?: string;
		labels?: Record<string, string>;
		[key: string]: unknown;
	};
	[key: string]: unknown;
};

/** The resources planwatch reads. Never Secrets, never writes. */
export type ResourceKind = 'Instance' | 'OperatorVersion' | 'ActionSet' | 'Blueprint' | 'Event' | WorkloadKind;

/**
 * What planwatch reads to say why a step or phase is stuck: the objects KUDO applied, and pods. Watched only for
 * nodes that need it (see docs/stuck.md); pods are optional RBAC.
 */
export type WorkloadKind = 'Pod' | 'Deployment' | 'StatefulSet' | 'Job';

export const workloadKinds: readonly WorkloadKind[] = ['Pod', 'Deployment', 'StatefulSet', 'Job'];

/** A resource as kubectl and RBAC rules name it (`without events`, `pods past the cap`). */
export const resourcePlural: Readonly<Record<ResourceKind, string>> = {
	Instance: 'instances',
	OperatorVersion: 'operatorversions',
	ActionSet: 'actionsets',
	Blueprint: 'blueprints',
	Event: 'events',
	Pod: 'pods',
	Deployment: 'deployments',
	StatefulSet: 'statefulsets',
	Job: 'jobs',
};

export function isWorkloadKind(kind: string): kind is WorkloadKind {
	return (workloadKinds as readonly string[]).includes(kind);
}

/** Which resource a raw object is, by apiVersion group and kind; undefined for kinds planwatch ignores. */
export function resourceOf(object: KubeObject): ResourceKind | undefined {
	const group = (object.apiVersion ?? '').split('/')[0];
	switch (object.kind) {
		case 'Instance': {
			return group === 'kudo.dev' ? 'Instance' : undefined;
		}

		case 'OperatorVersion': {
			return group === 'kudo.dev' ? 'OperatorVersion' : undefined;
		}

		case 'ActionSet': {
			return group === 'cr.kanister.io' ? 'ActionSet' : undefined;
		}

		case 'Blueprint': {
			return group === 'cr.kanister.io' ? 'Blueprint' : undefined;
		}

		case 'Pod': {
			return object.apiVersion === 'v1' ? 'Pod' : undefined;
		}

		case 'Deployment':
		case 'StatefulSet': {
			return group === 'apps' ? object.kind : undefined;
		}

		case 'Job': {
			return group === 'batch' ? 'Job' : undefined;
		}

		case 'Event': {
			return object.apiVersion === 'v1' || object.apiVersion === 'events.k8s.io/v1' ? 'Event' : undefined;
		}

		default: {
			return undefined;
		}
	}
}
