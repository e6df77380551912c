/**
 * What planwatch watched to say why a node is stuck or failed: KUDO's applied objects, pods (with the Kanister
 * pods that are gone, kept so a failed phase still shows its pod), warning Events about pods, and log tails. Fed
 * by the store with the source's events; read by the views through `diagnose`. The views say which nodes are on
 * screen (`setInterest`); a source that can follow pods and logs reads that (`InterestFeed`). Bounded throughout.
 */
import {isWorkloadKind, workloadKinds, type KubeObject, type WorkloadKind} from '../core/kube-object.js';
import {
	diagnoseKanisterPhase,
	diagnoseKudoStep,
	isDiagnosable,
	kanisterCreatedBy,
	kanisterNamespaces,
	logKey,
	type Diagnosis,
	type GonePod,
	type LogRef,
	type WatchedView,
} from '../model/diagnosis.js';
import {appendLog, emptyLogTail, type LogTail} from '../model/log-tail.js';
import type {PodEvent} from '../model/pod-reason.js';
import {contextSeparator, objectKey, type PlanNode, type PlanObject} from '../model/plan-tree.js';
import {namespacedName} from '../model/object-references.js';
import {maxMessageLength, maxNameLength, sanitizeLine} from '../model/sanitize.js';
import {Listeners} from '../core/external-store.js';
import type {Clock} from '../core/clock.js';
import type {Interest, InterestFeed, SourceEvent} from './object-source.js';

export const workloadLimits = {
	/** Gone Kanister pods remembered (with their log tails), per run. */
	gonePods: 200,
	/** Container logs kept. */
	logs: 200,
	/** Warning Events about pods kept per namespace. */
	eventsPerNamespace: 200,
} as const;

type Scoped = string; // `<context>␟<namespace>/<name>` or `<namespace>/<name>`

function scoped(context: string | undefined, key: string): Scoped {
	return context === undefined ? key : `${context}${contextSeparator}${key}`;
}

function interestKey(i: Interest): string {
	return `${i.context ?? ''}${contextSeparator}${i.kind}${contextSeparator}${[...i.namespaces].sort().join(',')}`;
}

/** A node to explain, as the views pass it. */
export type DiagnoseInput = {
	readonly object: PlanObject;
	readonly node: PlanNode;
	/** The node's run in clock ms (Kanister: which pods it ran). */
	readonly run?: {readonly startedAt?: number; readonly endedAt?: number};
};

export class Workloads implements InterestFeed {
	readonly #clock: Clock;
	readonly #raw = new Map<WorkloadKind, Map<Scoped, KubeObject>>(workloadKinds.map(kind => [kind, new Map()]));
	readonly #gone = new Map<Scoped, GonePod>();
	readonly #events = new Map<Scoped, PodEvent[]>();
	readonly #logs = new Map<Scoped, LogTail>();
	readonly #logErrors = new Map<Scoped, string>();
	#forbidden: string | undefined;
	/** The note is a refused collection's: the store's `missing` says it too. */
	#noteIsMissing = false;
	#interest: readonly Interest[] = [];
	#interestKeys = '';
	/** Diagnoses of the nodes of interest: the logs the source should follow. */
	#wanted: Array<LogRef & {readonly context?: string}> = [];
	#version = 0;
	readonly #listeners = new Listeners();

	constructor(clock: Clock) {
		this.#clock = clock;
	}

	get version(): number {
		return this.#version;
	}

	/** Events the store hands on: workload kinds, pod Events, logs, and `missing` of pods. Returns whether it took it. */
	apply(event: SourceEvent): boolean {
		const {context} = event;
		switch (event.type) {
			case 'upsert':
			case 'delete': {
				if (event.resource === 'Event') {
					return this.#podEvent(context, event.object, event.type === 'upsert');
				}

				if (!isWorkloadKind(event.resource)) {
					return false;
				}

				const key = scoped(context, namespacedName(event.object));
				if (event.type === 'upsert') {
					this.#raw.get(event.resource)!.set(key, event.object);
				} else {
					this.#remove(event.resource, key);
				}

				break;
			}

			case 'replace': {
				if (event.resource === 'Event') {
					let took = false;
					for (const o of event.objects) {
						took = this.#podEvent(context, o, true) || took;
					}

					return took;
				}

				if (!isWorkloadKind(event.resource)) {
					return false;
				}

				const raw = this.#raw.get(event.resource)!;
				const keep = new Set(event.objects.map(o => scoped(context, namespacedName(o))));
				for (const [key, o] of raw) {
					const inContext = context === undefined ? !key.includes(contextSeparator) : key.startsWith(context + contextSeparator);
					if (inContext && !keep.has(key) && (event.namespace === undefined || o.metadata?.namespace === event.namespace)) {
						this.#remove(event.resource, key);
					}
				}

				for (const o of event.objects) {
					raw.set(scoped(context, namespacedName(o)), o);
				}

				break;
			}

			case 'log': {
				const key = scoped(context, logKey(event));
				if (event.error !== undefined) {
					this.#logErrors.set(key, sanitizeLine(event.error));
					if (event.forbidden) {
						this.#forbidden ??= `pod logs cannot be read: ${sanitizeLine(event.error, maxMessageLength)}`;
					}
				} else {
					this.#logErrors.delete(key);
					const before = event.reset ? emptyLogTail : (this.#logs.get(key) ?? emptyLogTail);
					this.#logs.delete(key);
					this.#logs.set(key, appendLog(before, event.text));
					for (const oldest of this.#logs.keys()) {
						if (this.#logs.size <= workloadLimits.logs) {
							break;
						}

						this.#logs.delete(oldest);
					}
				}

				break;
			}

			case 'missing': {
				if (!isWorkloadKind(event.resource)) {
					return false;
				}

				// One note for the tree: the first collection refused says why (the others fail the same way).
				const what = event.resource === 'Pod' ? 'pods' : 'applied objects';
				if (this.#forbidden === undefined) {
					this.#forbidden = `${what} cannot be read: ${sanitizeLine(event.message, maxMessageLength)}`;
					this.#noteIsMissing = true;
				}
				break;
			}

			default: {
				return false;
			}
		}

		this.#changed();
		return true;
	}

	#remove(kind: WorkloadKind, key: Scoped): void {
		const raw = this.#raw.get(kind)!;
		const last = raw.get(key);
		raw.delete(key);
		// Kanister deletes the pod of a function when it ends: keep it, so a failed phase still shows its pod.
		if (kind === 'Pod' && last?.metadata?.labels?.[kanisterCreatedBy.key] === kanisterCreatedBy.value) {
			this.#gone.delete(key);
			this.#gone.set(key, {pod: last, goneAt: this.#clock.now()});
			for (const oldest of this.#gone.keys()) {
				if (this.#gone.size <= workloadLimits.gonePods) {
					break;
				}

				this.#gone.delete(oldest);
			}
		}
	}

	#podEvent(context: string | undefined, raw: KubeObject, present: boolean): boolean {
		const involved = (raw['involvedObject'] ?? raw['regarding'] ?? {}) as Record<string, unknown>;
		if (involved['kind'] !== 'Pod' || raw['type'] !== 'Warning') {
			return false;
		}

		const namespace = sanitizeLine(raw.metadata?.namespace, maxNameLength);
		const key = scoped(context, namespace);
		const name = sanitizeLine(raw.metadata?.name, maxNameLength);
		const list = (this.#events.get(key) ?? []).filter(e => e.name !== name);
		if (present) {
			const time = raw['lastTimestamp'] ?? raw['eventTime'] ?? raw['firstTimestamp'];
			list.push({
				name,
				pod: sanitizeLine(involved['name'], maxNameLength),
				reason: sanitizeLine(raw['reason'], 100),
				message: sanitizeLine(raw['message'] ?? raw['note'], maxMessageLength),
				...(typeof time === 'string' ? {time: sanitizeLine(time, 64)} : {}),
			});
		}

		this.#events.set(key, list.slice(-workloadLimits.eventsPerNamespace));
		this.#changed();
		return true;
	}

	#changed(): void {
		this.#version++;
	}

	/** What was watched in these namespaces of one context. */
	view(context: string | undefined, namespaces: readonly string[]): WatchedView {
		const inContext = (key: string): boolean => (
			context === undefined ? !key.includes(contextSeparator) : key.startsWith(context + contextSeparator)
		);
		const inScope = (o: KubeObject, key: string): boolean => inContext(key) && namespaces.includes(o.metadata?.namespace ?? '');
		const pick = (kind: WorkloadKind): KubeObject[] => [...this.#raw.get(kind)!]
			.filter(([key, o]) => inScope(o, key))
			.map(([, o]) => o);
		const logs = new Map<string, LogTail>();
		const prefix = context === undefined ? '' : context + contextSeparator;
		for (const [key, tail] of this.#logs) {
			if (key.startsWith(prefix) && (context !== undefined || !key.includes(contextSeparator))) {
				logs.set(key.slice(prefix.length), tail);
			}
		}

		return {
			workloads: [...pick('Deployment'), ...pick('StatefulSet'), ...pick('Job')],
			pods: pick('Pod'),
			gonePods: [...this.#gone].filter(([key, g]) => inScope(g.pod, key)).map(([, g]) => g),
			events: namespaces.flatMap(ns => this.#events.get(scoped(context, ns)) ?? []),
			logs,
			...(this.#forbidden ? {note: this.#forbidden} : {}),
		};
	}

	/** Why `node` is stuck or failed; undefined for a node planwatch does not explain (not running/failed). */
	diagnose(input: DiagnoseInput): Diagnosis | undefined {
		const {object, node} = input;
		if (!isDiagnosable(object, node)) {
			return undefined;
		}

		const path = pathTo(object.tree, node.id) ?? [];
		if (object.kind === 'Instance') {
			const [plan, phase] = path;
			if (!plan || !phase) {
				return undefined;
			}

			const view = this.view(object.context, [object.namespace]);
			return diagnoseKudoStep(object, {plan: plan.name, phase: phase.name, step: node.name}, node, view);
		}

		const action = path[0];
		const namespaces = kanisterNamespaces(object, action);
		return diagnoseKanisterPhase(object, object.jobId, action, node, input.run ?? {}, this.view(object.context, namespaces));
	}

	/**
	 * What planwatch could not read in time (a one-shot picture drawn without its pods): the tree's one note, as a
	 * refusal is. The first note stays.
	 */
	noteUnread(text: string): void {
		if (this.#forbidden === undefined) {
			this.#forbidden = sanitizeLine(text, maxMessageLength);
			this.#changed();
		}
	}

	/** The one note (RBAC, or not read in time), if any; `missing`: a refused collection's, which `missing` says too. */
	get note(): {readonly text: string; readonly missing: boolean} | undefined {
		return this.#forbidden === undefined ? undefined : {text: this.#forbidden, missing: this.#noteIsMissing};
	}

	/** Nodes the views show: the source watches pods and logs for these only. */
	setInterest(interest: readonly Interest[]): void {
		const keys = [...new Set(interest.map(i => interestKey(i)))].sort().join('\n');
		if (keys === this.#interestKeys) {
			return;
		}

		this.#interestKeys = keys;
		this.#interest = interest;
		this.#listeners.notify();
	}

	/** The logs the nodes of interest want, set by the views with the diagnoses they drew. */
	setWantedLogs(logs: ReadonlyArray<LogRef & {readonly context?: string}>): void {
		const key = (l: LogRef & {readonly context?: string}): string => `${l.context ?? ''}${contextSeparator}${logKey(l)}`;
		const before = this.#wanted.map(l => key(l)).sort().join('\n');
		const after = logs.map(l => key(l)).sort().join('\n');
		if (before !== after) {
			this.#wanted = [...logs];
			this.#listeners.notify();
		}
	}

	interest(): readonly Interest[] {
		return this.#interest;
	}

	wantedLogs(): ReadonlyArray<LogRef & {readonly context?: string}> {
		return this.#wanted;
	}

	readonly subscribe = (listener: () => void): (() => void) => this.#listeners.add(listener);
}

/** The ancestors of node `id`, top first; undefined when it is not in `nodes`. */
function pathTo(nodes: readonly PlanNode[], id: string, trail: readonly PlanNode[] = []): PlanNode[] | undefined {
	for (const n of nodes) {
		if (n.id === id) {
			return [...trail];
		}

		const below = pathTo(n.children, id, [...trail, n]);
		if (below) {
			return below;
		}
	}

	return undefined;
}

/** Why `node` of `object` is stuck or failed, with the node's run from the snapshot's timings (views and printers). */
export function diagnoseIn(
	snapshot: {
		readonly workloads?: Workloads;
		readonly timings: ReadonlyMap<string, ReadonlyMap<string, {readonly startedAt?: number; readonly endedAt?: number}>>;
	},
	object: PlanObject,
	node: PlanNode,
): Diagnosis | undefined {
	if (!snapshot.workloads) {
		return undefined;
	}

	const run = runOfTiming(snapshot.timings.get(objectKey(object))?.get(node.id));
	return snapshot.workloads.diagnose({object, node, ...(run ? {run} : {})});
}

/** A node's run from its timing (clock ms), as `diagnose` takes it. */
export function runOfTiming(timing: {readonly startedAt?: number; readonly endedAt?: number} | undefined): DiagnoseInput['run'] {
	if (!timing) {
		return undefined;
	}

	const run: {startedAt?: number; endedAt?: number} = {};
	if (timing.startedAt !== undefined) {
		run.startedAt = timing.startedAt;
	}

	if (timing.endedAt !== undefined) {
		run.endedAt = timing.endedAt;
	}

	return run;
}
