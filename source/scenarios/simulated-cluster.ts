/**
 * An in-memory stand-in for the API server, enough to play scenarios: objects keyed by resource and
 * namespace/name, one increasing resourceVersion, server-set metadata, status-subresource semantics for KUDO
 * Instances, and no-op writes that change nothing (the API server neither bumps the resourceVersion nor sends a
 * watch event for those). Used by the demo source and by the scenario tests.
 */
import type {KubeObject, ResourceKind} from '../core/kube-object.js';
import {eventNameFor, uuidFor} from './ids.js';
import {completeEvent, isoSeconds, materialize, type PlayContext, type ScenarioStep} from './scenario.js';

export type ClusterChange = {readonly type: 'upsert' | 'delete'; readonly resource: ResourceKind; readonly object: KubeObject};

export const clusterResources: readonly ResourceKind[] = [
	'OperatorVersion', 'Instance', 'Blueprint', 'ActionSet', 'Event', 'Deployment', 'StatefulSet', 'Job', 'Pod',
];

/** Kinds whose status is a subresource: writes to it leave spec and generation alone. */
const statusSubresource = new Set<ResourceKind>(['Instance', 'Deployment', 'StatefulSet', 'Job', 'Pod']);

function key(object: KubeObject): string {
	return `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`;
}

export class SimulatedCluster {
	readonly #now: () => number;
	readonly #objects = new Map<ResourceKind, Map<string, KubeObject>>(clusterResources.map(r => [r, new Map()]));
	#resourceVersion: number;
	#created = 0;
	#events = 0;

	constructor(options: {now: () => number; firstResourceVersion?: number}) {
		this.#now = options.now;
		this.#resourceVersion = options.firstResourceVersion ?? 1000;
	}

	/** Apply one step. Returns the change to report, or undefined for a no-op. Throws on an impossible step. */
	apply(step: ScenarioStep, ctx: PlayContext): ClusterChange | undefined {
		if (step.op === 'log') {
			return undefined; // no object changes: the demo source hands the lines on
		}

		const object = materialize(step, ctx);
		const store = this.#objects.get(step.resource)!;
		const current = store.get(key(object));
		switch (step.op) {
			case 'create': {
				if (current) {
					// Shared definitions (one OperatorVersion for several Instances) are created once.
					if (step.resource === 'OperatorVersion' || step.resource === 'Blueprint') {
						return undefined;
					}

					throw new Error(`create ${step.resource} ${key(object)}: already exists`);
				}

				const {status: _dropped, ...rest} = object;
				return this.#write(step.resource, this.#stamped(statusSubresource.has(step.resource) ? rest : object));
			}

			case 'event': {
				const involved = (object['involvedObject'] ?? {}) as {kind?: string; name?: string};
				const target = this.get(involved.kind as ResourceKind, ctx.namespace, involved.name ?? '');
				const event = completeEvent(object, {
					name: eventNameFor(involved.name ?? 'event', this.#now(), ++this.#events),
					time: ctx.now(),
					involvedUid: target?.metadata?.uid,
				});
				return this.#write('Event', this.#stamped(event));
			}

			case 'status':
			case 'update': {
				if (!current) {
					throw new Error(`${step.op} ${step.resource} ${key(object)}: not found`);
				}

				const field = step.op === 'status' ? 'status' : 'spec';
				if (JSON.stringify(current[field]) === JSON.stringify(object[field])) {
					return undefined;
				}

				const bumps = step.op === 'update' || !statusSubresource.has(step.resource);
				const generation = Number(current.metadata?.['generation'] ?? 1) + (bumps ? 1 : 0);
				return this.#write(step.resource, {...current, metadata: {...current.metadata, generation}, [field]: object[field]});
			}

			case 'delete': {
				if (!current) {
					throw new Error(`delete ${step.resource} ${key(object)}: not found`);
				}

				store.delete(key(current));
				return {
					type: 'delete',
					resource: step.resource,
					object: {...current, metadata: {...current.metadata, resourceVersion: this.#nextVersion()}},
				};
			}
		}
	}

	get(resource: ResourceKind, namespace: string, name: string): KubeObject | undefined {
		return this.#objects.get(resource)?.get(`${namespace}/${name}`);
	}

	list(resource: ResourceKind): KubeObject[] {
		return [...this.#objects.get(resource)!.values()];
	}

	/** Delete everything (for --loop); returns the deletions to report, events last. */
	clear(): ClusterChange[] {
		const changes: ClusterChange[] = [];
		const order = [
			'Pod', 'Deployment', 'StatefulSet', 'Job', 'Instance', 'ActionSet', 'OperatorVersion', 'Blueprint', 'Event',
		] as const;
		for (const resource of order) {
			const store = this.#objects.get(resource)!;
			for (const object of store.values()) {
				changes.push({
					type: 'delete',
					resource,
					object: {...object, metadata: {...object.metadata, resourceVersion: this.#nextVersion()}},
				});
			}

			store.clear();
		}

		return changes;
	}

	#stamped(object: KubeObject): KubeObject {
		const name = object.metadata?.name ?? '';
		return {
			...object,
			metadata: {
				...object.metadata,
				uid: uuidFor(`${object.kind ?? ''}/${key(object)}/${++this.#created}`),
				creationTimestamp: isoSeconds(this.#now()),
				...(object.kind === 'Event' ? {} : {generation: 1}),
				name,
			},
		};
	}

	#write(resource: ResourceKind, object: KubeObject): ClusterChange {
		const stored = {...object, metadata: {...object.metadata, resourceVersion: this.#nextVersion()}};
		this.#objects.get(resource)!.set(key(stored), stored);
		return {type: 'upsert', resource, object: stored};
	}

	#nextVersion(): string {
		return String(++this.#resourceVersion);
	}
}
