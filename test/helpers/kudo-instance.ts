import type {KubeObject} from '../../source/core/kube-object.js';

/** One plan of a built Instance: status, lastUpdatedTimestamp, status uid (default `<plan>-run`). */
export type BuiltPlan = {readonly status: string; readonly at?: string; readonly uid?: string};

/**
 * A kudo.dev/v1beta1 Instance `default/op` (uid `inst-uid-1`) with one single-step phase per plan, in the shape
 * the v0.19.0 manager writes; `planExecution` as the webhook leaves it ({} at rest).
 */
export function kudoInstance(plans: Record<string, BuiltPlan>, planExecution: Record<string, string> = {}): KubeObject {
	const planStatus: Record<string, unknown> = {};
	for (const [name, p] of Object.entries(plans)) {
		planStatus[name] = {
			name,
			status: p.status,
			...(p.at ? {lastUpdatedTimestamp: p.at} : {}),
			uid: p.uid ?? `${name}-run`,
			phases: [{name, status: p.status, steps: [{name, status: p.status, ...(p.status === 'FATAL_ERROR' ? {message: `${name} broke`} : {})}]}],
		};
	}

	return {
		apiVersion: 'kudo.dev/v1beta1',
		kind: 'Instance',
		metadata: {name: 'op', namespace: 'default', uid: 'inst-uid-1', creationTimestamp: '2026-01-01T10:00:00Z', resourceVersion: '50'},
		spec: {operatorVersion: {name: 'op-0.1.0'}, planExecution},
		status: {planStatus},
	};
}
