/**
 * Plays a Scenario (source/scenarios) against a real API server the way the controllers would write it:
 * creates OperatorVersions/Blueprints and Instances/ActionSets, writes KUDO status through the status
 * subresource, Kanister status by replacing the whole object (GET, set status, PUT with the resourceVersion,
 * retry on 409, like Kanister's reconcile.ActionSet), replaces spec for `update`, creates core/v1 Events like an
 * event recorder. Steps are applied strictly in order, each no earlier than `start + at / speed`.
 */
import {ApiException, CoreV1Api, CustomObjectsApi, KubeConfig} from '@kubernetes/client-node';
import {setTimeout as sleep} from 'node:timers/promises';
import type {KubeObject, ResourceKind} from '../../../source/core/kube-object.js';
import {eventNameFor} from '../../../source/scenarios/ids.js';
import {completeEvent, dueAt, isoSeconds, materialize, playContext, type Scenario, type ScenarioStep} from '../../../source/scenarios/scenario.js';

type CustomResource = {group: string; version: string; plural: string};

/** Kinds under a group path (/apis/GROUP/VERSION/…): written through the custom objects client. Pods are core/v1. */
const customResources: Record<Exclude<ResourceKind, 'Event' | 'Pod'>, CustomResource> = {
	Deployment: {group: 'apps', version: 'v1', plural: 'deployments'},
	StatefulSet: {group: 'apps', version: 'v1', plural: 'statefulsets'},
	Job: {group: 'batch', version: 'v1', plural: 'jobs'},
	Instance: {group: 'kudo.dev', version: 'v1beta1', plural: 'instances'},
	OperatorVersion: {group: 'kudo.dev', version: 'v1beta1', plural: 'operatorversions'},
	ActionSet: {group: 'cr.kanister.io', version: 'v1alpha1', plural: 'actionsets'},
	Blueprint: {group: 'cr.kanister.io', version: 'v1alpha1', plural: 'blueprints'},
};

/** Kinds with a status subresource: their status is written to `/status`. */
const statusSubresource = new Set<ResourceKind>(['Instance', 'Deployment', 'StatefulSet', 'Job', 'Pod']);

export type ScenarioPlayerOptions = {
	/** Path of an admin kubeconfig (Cluster.adminKubeconfig). */
	kubeconfig: string;
	/** Every object goes here; created when missing. Use a fresh name per test. */
	namespace: string;
	/** 10 = ten times faster than the scenario's own timing. Default 10. */
	speed?: number;
	/** Called after each step, with what the server returned (undefined for a no-op or a delete). */
	onStep?: (info: {readonly index: number; readonly step: ScenarioStep; readonly result: KubeObject | undefined}) => void | Promise<void>;
	signal?: AbortSignal;
};

export type PlayedScenario = {
	/** The last state the server returned for every object written, by `Kind/name` (deleted ones removed). */
	readonly objects: ReadonlyMap<string, KubeObject>;
	/** Events created, in order, as the server returned them. */
	readonly events: readonly KubeObject[];
	/** Wall-clock start (ms) the schedule was measured from. */
	readonly startedAt: number;
	readonly finishedAt: number;
	/** Worst delay behind schedule (ms): a large value means the speed was too high for this machine. */
	readonly maxLagMs: number;
	/** Writes that had to be retried after a 409 Conflict. */
	readonly conflicts: number;
};

function errorCode(error: unknown): number | undefined {
	return error instanceof ApiException ? error.code : undefined;
}

function describeError(error: unknown): string {
	if (error instanceof ApiException) {
		const body = typeof error.body === 'string' ? error.body : JSON.stringify(error.body);
		return `HTTP ${error.code}: ${body.slice(0, 500)}`;
	}

	return error instanceof Error ? error.message : String(error);
}

export class ScenarioPlayerError extends Error {
	constructor(scenario: string, index: number, step: ScenarioStep, name: string, cause: unknown) {
		super(`scenario ${scenario}, step ${index} (at ${step.at} ms, ${step.op} ${step.resource}/${name}): ${describeError(cause)}`);
		this.name = 'ScenarioPlayerError';
	}
}

/** client-node's typed core models hold Dates; back to the JSON the server sent (metav1.Time: whole seconds). */
function toRaw(typed: unknown): KubeObject {
	return JSON.parse(JSON.stringify(typed, function (this: Record<string, unknown>, key: string, value: unknown) {
		const original = this[key];
		return original instanceof Date ? isoSeconds(original.getTime()) : value;
	})) as KubeObject;
}

function clients(kubeconfig: string): {custom: CustomObjectsApi; core: CoreV1Api} {
	const kc = new KubeConfig();
	kc.loadFromFile(kubeconfig);
	return {custom: kc.makeApiClient(CustomObjectsApi), core: kc.makeApiClient(CoreV1Api)};
}

async function ensureNamespace(core: CoreV1Api, namespace: string): Promise<void> {
	try {
		await core.readNamespace({name: namespace});
	} catch (error) {
		if (errorCode(error) !== 404) {
			throw error;
		}

		try {
			await core.createNamespace({body: {apiVersion: 'v1', kind: 'Namespace', metadata: {name: namespace}}});
		} catch (createError) {
			if (errorCode(createError) !== 409) {
				throw createError;
			}
		}
	}
}

/** Play `scenario` to its end. Rejects with a ScenarioPlayerError naming the step that failed. */
export async function playScenario(scenario: Scenario, options: ScenarioPlayerOptions): Promise<PlayedScenario> {
	const speed = options.speed ?? 10;
	if (!(speed > 0)) {
		throw new RangeError(`speed must be > 0, got ${speed}`);
	}

	const {custom, core} = clients(options.kubeconfig);
	const {namespace} = options;
	await ensureNamespace(core, namespace);

	const objects = new Map<string, KubeObject>();
	const events: KubeObject[] = [];
	let conflicts = 0;
	let maxLagMs = 0;
	let eventSequence = 0;
	const startedAt = Date.now();
	const ctx = playContext({namespace, startMs: startedAt, speed, now: () => Date.now()});
	const where = (resource: ResourceKind, name: string) => ({...customResources[resource as Exclude<ResourceKind, 'Event' | 'Pod'>], namespace, name});
	const get = async (resource: ResourceKind, name: string): Promise<KubeObject> => (resource === 'Pod'
		? toRaw(await core.readNamespacedPod({name, namespace}))
		: await custom.getNamespacedCustomObject(where(resource, name)) as KubeObject);
	const put = async (resource: ResourceKind, name: string, body: KubeObject, subresource: boolean): Promise<KubeObject> => {
		if (resource === 'Pod') {
			return toRaw(subresource ? await core.replaceNamespacedPodStatus({name, namespace, body: body as never}) : await core.replaceNamespacedPod({name, namespace, body: body as never}));
		}

		return (subresource
			? await custom.replaceNamespacedCustomObjectStatus({...where(resource, name), body})
			: await custom.replaceNamespacedCustomObject({...where(resource, name), body})) as KubeObject;
	};

	/** GET, change, PUT; again on 409 with a fresh GET. */
	const replace = async (resource: ResourceKind, name: string, change: (current: KubeObject) => KubeObject, subresource: boolean): Promise<KubeObject> => {
		for (let attempt = 1; ; attempt++) {
			const current = await get(resource, name);
			try {
				return await put(resource, name, change(current), subresource);
			} catch (error) {
				if (errorCode(error) !== 409 || attempt >= 10) {
					throw error;
				}

				conflicts++;
			}
		}
	};

	const apply = async (step: ScenarioStep): Promise<KubeObject | undefined> => {
		const object = materialize(step, ctx);
		const name = object.metadata?.name ?? '';
		const key = `${step.resource}/${name}`;
		switch (step.op) {
			case 'create': {
				try {
					const created = step.resource === 'Pod'
						? toRaw(await core.createNamespacedPod({namespace, body: object as never}))
						: await custom.createNamespacedCustomObject({...where(step.resource, name), body: object}) as KubeObject;
					objects.set(key, created);
					return created;
				} catch (error) {
					// Definitions shared by several scenarios are created once.
					if (errorCode(error) === 409 && (step.resource === 'OperatorVersion' || step.resource === 'Blueprint')) {
						return undefined;
					}

					throw error;
				}
			}

			case 'status': {
				const written = await replace(step.resource, name, current => ({...current, status: object['status']}), statusSubresource.has(step.resource));
				objects.set(key, written);
				return written;
			}

			case 'update': {
				const written = await replace(step.resource, name, current => ({...current, spec: object['spec']}), false);
				objects.set(key, written);
				return written;
			}

			case 'delete': {
				await (step.resource === 'Pod'
					// No kubelet to finish a graceful deletion: gone at once, as the simulated cluster has it.
					? core.deleteNamespacedPod({name, namespace, gracePeriodSeconds: 0})
					: custom.deleteNamespacedCustomObject(where(step.resource, name)));
				objects.delete(key);
				return undefined;
			}

			case 'log': {
				// No kubelet here to hold a container's log: log lines are the demo's (and a stand-in's) to serve.
				return undefined;
			}

			case 'event': {
				const involved = (object['involvedObject'] ?? {}) as {kind?: string; name?: string};
				const target = objects.get(`${involved.kind ?? ''}/${involved.name ?? ''}`);
				const body = completeEvent(object, {
					name: eventNameFor(involved.name ?? 'event', Date.now(), ++eventSequence),
					time: ctx.now(),
					involvedUid: target?.metadata?.uid,
				});
				const created = toRaw(await core.createNamespacedEvent({namespace, body: body as never}));
				events.push(created);
				return created;
			}
		}
	};

	for (const [index, step] of scenario.objects.entries()) {
		options.signal?.throwIfAborted();
		const wait = dueAt(step, startedAt, speed) - Date.now();
		if (wait > 0) {
			await sleep(wait, undefined, {signal: options.signal});
		} else {
			maxLagMs = Math.max(maxLagMs, -wait);
		}

		let result: KubeObject | undefined;
		try {
			result = await apply(step);
		} catch (error) {
			const name = materialize(step, ctx).metadata?.name ?? '';
			throw new ScenarioPlayerError(scenario.name, index, step, name, error);
		}

		await options.onStep?.({index, step, result});
	}

	return {objects, events, startedAt, finishedAt: Date.now(), maxLagMs, conflicts};
}

/** Everything of ours in a namespace as the server has it now, by `Kind/name` (events by their own name). */
export async function readObjects(kubeconfig: string, namespace: string): Promise<Map<string, KubeObject>> {
	const {custom, core} = clients(kubeconfig);
	const out = new Map<string, KubeObject>();
	// The controllers' objects: a real apiserver fills in defaults a scenario's pods and Deployments leave out.
	for (const kind of ['Instance', 'OperatorVersion', 'ActionSet', 'Blueprint'] as const) {
		const list = await custom.listNamespacedCustomObject({...customResources[kind], namespace}) as {items: KubeObject[]};
		for (const item of list.items) {
			out.set(`${kind}/${item.metadata?.name ?? ''}`, item);
		}
	}

	const eventList = await core.listNamespacedEvent({namespace});
	for (const item of eventList.items) {
		out.set(`Event/${item.metadata?.name ?? ''}`, {apiVersion: 'v1', kind: 'Event', ...toRaw(item)});
	}

	return out;
}
