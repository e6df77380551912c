/**
 * The cap on distinct objects the store holds (docs/limits.md): a watch that keeps creating objects must not grow
 * memory without bound. Past it, newer Instances, ActionSets, OperatorVersions and Blueprints are not held and the
 * oldest Events make room for newer ones; the store says so once per kind.
 */
import type {KubeObject, ResourceKind} from '../core/kube-object.js';

/**
 * Distinct objects held of one kind, over all contexts. 20 000 Instances (or ActionSets) stay inside the 400 MB
 * every input is held to (10 000 cost ~190 MB from a file; a watch creating 100 000 peaks at ~330 MB with 20 000
 * held: `npm run bench -- --only hostile`).
 */
export const maxObjectsPerKind = 20_000;

const heldNames: Readonly<Record<ResourceKind, string>> = {
	Instance: 'Instances',
	OperatorVersion: 'OperatorVersions',
	ActionSet: 'ActionSets',
	Blueprint: 'Blueprints',
	Event: 'Events about Instances and ActionSets',
	// Held by state/workloads.ts, not by the store, so not counted here; named for the type only.
	Pod: 'Pods',
	Deployment: 'Deployments',
	StatefulSet: 'StatefulSets',
	Job: 'Jobs',
};

/** The line said once when a kind passes the cap. */
export function limitedMessage(resource: ResourceKind, limit = maxObjectsPerKind): string {
	const what = `more ${heldNames[resource]} than planwatch holds (${limit.toLocaleString('en-US')})`;
	return resource === 'Event' ? `${what}: the oldest are dropped` : `${what}: the ones past it are not shown`;
}

/** Events about anything else (Pods, Jobs…) are never read: the store does not hold them. */
export function aboutWatched(event: KubeObject): boolean {
	const kind = (event['involvedObject'] as {kind?: unknown} | undefined)?.kind;
	return kind === 'Instance' || kind === 'ActionSet';
}
