/**
 * The store: objects keyed by namespace/name, fed by any ObjectSource, handed out as immutable snapshots. It
 * wires the parts that each do one job: the raw objects and what reads them (raw-objects.ts), the events per
 * object (event-index.ts), the adaptation (model/), timers and status changes (node-timings.ts,
 * transition-log.ts), the sorted list (sorted-objects.ts), deletions (deleted-objects.ts), the contexts
 * (context-list.ts) and what changed per version (change-log.ts).
 */
import type {SourceEvent, ConnectionState} from './object-source.js';
import type {ExitCode} from '../core/exit-codes.js';
import {isWorkloadKind, type KubeObject, type ResourceKind} from '../core/kube-object.js';
import {ActionSetMemo, adaptActionSet} from '../model/adapt-kanister-action-set.js';
import {adaptInstance} from '../model/adapt-kudo-instance.js';
import {reuseUnchanged, sameRaw} from '../model/compact-raw.js';
import {kudoEventsOf, nextRunMemory, type KudoRunMemory} from '../model/kudo-plan-order.js';
import {objectKey, parseObjectKey, type PlanObject} from '../model/plan-tree.js';
import {blueprintKey, namespacedName, operatorVersionKey} from '../model/object-references.js';
import {SharedNodes} from '../model/shared-nodes.js';
import type {Clock} from '../core/clock.js';
import {Listeners} from '../core/external-store.js';
import {ChangeLog} from './change-log.js';
import {ContextList} from './context-list.js';
import {aboutWatched, limitedMessage, maxObjectsPerKind} from './object-cap.js';
import {DeletedObjects} from './deleted-objects.js';
import {EventIndex} from './event-index.js';
import {stampTimings} from './node-timings.js';
import {RawObjects} from './raw-objects.js';
import {SortedObjects} from './sorted-objects.js';
import {deletedStatus, objectTimingId, type NodeTiming, type StoreSnapshot} from './store-snapshot.js';
import {TransitionLog} from './transition-log.js';
import {Workloads} from './workloads.js';

export {limitedMessage, maxObjectsPerKind} from './object-cap.js';
// The snapshot's types have their own file; importers of the store find them here too.
export {
	deletedStatus,
	objectTimingId,
	type ContextState,
	type DeletedObject,
	type NodeTiming,
	type StoreSnapshot,
	type Transition,
} from './store-snapshot.js';

/**
 * Adapts raw objects (the sanitizing boundary), stamps transitions with the clock and notifies subscribers once
 * per batch of source events.
 */
export class Store {
	readonly #clock: Clock;
	readonly #raw = new RawObjects();
	readonly #contexts = new ContextList();
	readonly #objects = new SortedObjects();
	/** One copy of each distinct plan node across all objects and adaptations. */
	readonly #nodes = new SharedNodes();
	readonly #timings = new Map<string, Map<string, NodeTiming>>();
	readonly #events = new EventIndex();
	/** objectKey → what planwatch saw of an Instance's plan runs (the order they started in). */
	readonly #runs = new Map<string, KudoRunMemory>();
	/** objectKey → what an ActionSet's actions were last built from (their nodes are reused while it is the same). */
	readonly #actionSets = new Map<string, ActionSetMemo>();
	readonly #transitions = new TransitionLog();
	readonly #deleted = new DeletedObjects();
	readonly #changes = new ChangeLog();
	#connection: ConnectionState = {status: 'connecting'};
	#lastEventAt: number | undefined;
	#synced = false;
	#fatal: {message: string; exitCode: ExitCode} | undefined;
	#missing: ReadonlyArray<{readonly resource: ResourceKind; readonly message: string}> = [];
	#limited: ReadonlyArray<{readonly resource: ResourceKind; readonly message: string}> = [];
	readonly #maxPerKind: number;
	#version = 0;
	#snapshot: StoreSnapshot | undefined;
	readonly #listeners = new Listeners();
	#notifyQueued = false;

	/** What planwatch watched to explain stuck and failed nodes (state/workloads.ts). */
	readonly workloads: Workloads;

	/** `maxPerKind`: tests of the cap use a small one. */
	constructor(clock: Clock, {maxPerKind = maxObjectsPerKind}: {readonly maxPerKind?: number} = {}) {
		this.#clock = clock;
		this.#maxPerKind = maxPerKind;
		this.workloads = new Workloads(clock);
	}

	/** Apply one source event. Subscribers are notified once per microtask batch. */
	readonly apply = (event: SourceEvent): void => {
		const {context} = event;
		// Pods, applied objects, logs and pod Events are the workloads' (an Event about a pod is never the store's).
		if (this.workloads.apply(event) && event.type !== 'missing' && !(event.type === 'replace' && event.resource === 'Event')) {
			this.#lastEventAt = this.#clock.now();
			// Not an object changing in place: a reader that skips unchanged objects still redraws the diagnosis.
			this.#other();
			this.#changed();
			return;
		}

		if (context !== undefined && event.type !== 'upsert' && event.type !== 'delete' && event.type !== 'replace') {
			this.#contexts.apply(context, event);
			this.#other();
			this.#changed();
			return;
		}

		switch (event.type) {
			case 'upsert': {
				// An object past the cap that was already said: nothing changed, so no snapshot and no redraw (a watch
				// that keeps creating objects would otherwise cost a wait decision over everything per event).
				if (!this.#upsert(context, event.resource, event.object)) {
					return;
				}

				this.#lastEventAt = this.#clock.now();
				break;
			}

			case 'delete': {
				this.#lastEventAt = this.#clock.now();
				this.#delete(context, event.resource, event.object);
				break;
			}

			case 'replace': {
				this.#lastEventAt = this.#clock.now();
				this.#replace(context, event.resource, event.namespace, event.objects);
				break;
			}

			case 'synced': {
				this.#synced = true;
				this.#other();
				break;
			}

			case 'connection': {
				this.#connection = event.state;
				this.#other();
				break;
			}

			case 'fatal': {
				this.#fatal = {message: event.message, exitCode: event.exitCode};
				this.#other();
				break;
			}

			case 'missing': {
				// Pods and what KUDO applied are one note (state/workloads.ts keeps the first refused), not one per kind.
				const workload = isWorkloadKind(event.resource);
				if (workload && this.#missing.some(m => isWorkloadKind(m.resource) && m.resource !== event.resource)) {
					return;
				}

				this.#missing = [
					...this.#missing.filter(m => m.resource !== event.resource),
					{resource: event.resource, message: event.message},
				];
				this.#other();
				break;
			}
		}

		this.#changed();
	};

	readonly subscribe = (listener: () => void): (() => void) => {
		return this.#listeners.add(listener);
	};

	readonly getSnapshot = (): StoreSnapshot => {
		const contexts = this.#contexts.list;
		const deleted = this.#deleted.map;
		this.#snapshot ??= {
			version: this.#version,
			objects: this.#objects.array(),
			timings: this.#timings,
			events: this.#events.events,
			connection: this.#connection,
			lastEventAt: this.#lastEventAt,
			synced: this.#synced,
			fatal: this.#fatal,
			...(this.#missing.length === 0 ? {} : {missing: this.#missing}),
			...(this.#limited.length === 0 ? {} : {limited: this.#limited}),
			transitions: this.#transitions.list,
			...(deleted.size === 0 ? {} : {deleted}),
			...(contexts.length === 0 ? {} : {contexts}),
			changes: this.#changes,
			workloads: this.workloads,
		};
		return this.#snapshot;
	};

	/** Something other than an object changing in place, in the version being made. */
	#other(): void {
		this.#changes.other(this.#version + 1);
	}

	#changed(): void {
		this.#version++;
		this.#snapshot = undefined;
		if (this.#notifyQueued) {
			return;
		}

		this.#notifyQueued = true;
		queueMicrotask(() => {
			this.#notifyQueued = false;
			this.#listeners.notify();
		});
	}

	/** false: nothing changed (an object past the cap, said before). An Event about another kind is not held either. */
	#upsert(context: string | undefined, resource: ResourceKind, object: KubeObject): boolean {
		const raw = this.#raw.of(context, resource);
		const name = namespacedName(object);
		const held = raw.get(name);
		// What did not change stays the object held: the adapters skip it by identity.
		object = held === undefined ? object : reuseUnchanged(held, object);
		if (held !== undefined && sameRaw(held, object)) {
			// Only its resourceVersion moved (a relist, a write of what was there): nothing to adapt again, and no
			// change for a reader to look at; still an event, for the header's age.
			raw.set(name, object);
			return true;
		}

		if (held === undefined) {
			// Still an event that arrived: the header's `event 2s ago` says the connection is alive.
			if (resource === 'Event' && !aboutWatched(object)) {
				return true;
			}

			if (this.#raw.count(resource) >= this.#maxPerKind && !this.#dropOldestEvent(resource)) {
				return this.#overLimit(resource);
			}
		}

		raw.set(name, object);
		this.#refreshFor(context, resource, object);
		return true;
	}

	/** Events make room for newer ones: the oldest held goes, with what it told (Kubernetes keeps Events an hour). */
	#dropOldestEvent(resource: ResourceKind): boolean {
		const oldest = resource === 'Event' ? this.#raw.takeOldest('Event') : undefined;
		if (!oldest) {
			return false;
		}

		for (const owner of this.#events.index(oldest.context, oldest.object, false)) {
			this.#eventsChanged(owner);
		}

		this.#overLimit('Event');
		return true;
	}

	/** Says the cap was met, once per kind; true when that is news. */
	#overLimit(resource: ResourceKind): boolean {
		if (this.#limited.some(l => l.resource === resource)) {
			return false;
		}

		this.#limited = [...this.#limited, {resource, message: limitedMessage(resource, this.#maxPerKind)}];
		this.#other();
		return true;
	}

	#delete(context: string | undefined, resource: ResourceKind, object: KubeObject): void {
		this.#raw.of(context, resource).delete(namespacedName(object));
		if (resource === 'Instance' || resource === 'ActionSet') {
			const key = objectKey({
				kind: resource,
				namespace: object.metadata?.namespace ?? '',
				name: object.metadata?.name ?? '',
				...(context === undefined ? {} : {context}),
			});
			const last = this.#objects.get(key);
			if (last) {
				const at = this.#clock.now();
				this.#transitions.record({
					key,
					object: last,
					path: [],
					from: last.status,
					to: deletedStatus,
					at,
					timing: this.#timings.get(key)?.get(objectTimingId),
				});
				this.#deleted.add(key, last, at);
			}

			this.#objects.delete(key);
			this.#timings.delete(key);
			this.#runs.delete(key);
			this.#actionSets.delete(key);
			this.#other();
		} else {
			this.#refreshFor(context, resource, object);
		}
	}

	#replace(context: string | undefined, resource: ResourceKind, namespace: string | undefined, objects: readonly KubeObject[]): void {
		const raw = this.#raw.of(context, resource);
		const keep = new Set(objects.map(o => namespacedName(o)));
		for (const [key, old] of raw) {
			if (!keep.has(key) && (namespace === undefined || old.metadata?.namespace === namespace)) {
				this.#delete(context, resource, old);
			}
		}

		for (const o of objects) {
			this.#upsert(context, resource, o);
		}
	}

	/** Re-adapt whatever depends on a changed object (in its own context). */
	#refreshFor(context: string | undefined, resource: ResourceKind, object: KubeObject): void {
		switch (resource) {
			case 'Instance':
			case 'ActionSet': {
				this.#adapt(context, resource, object);
				break;
			}

			case 'OperatorVersion': {
				for (const instance of this.#raw.instancesRunning(context, object)) {
					this.#adapt(context, 'Instance', instance, false);
				}

				break;
			}

			case 'Blueprint': {
				for (const actionSet of this.#raw.actionSetsReading(context, object)) {
					this.#adapt(context, 'ActionSet', actionSet);
				}

				break;
			}

			case 'Event': {
				const present = this.#raw.of(context, 'Event').has(namespacedName(object));
				for (const owner of this.#events.index(context, object, present)) {
					this.#eventsChanged(owner);
				}

				break;
			}
		}
	}

	/** The object's events changed: it is re-adapted (deferPhase states, KUDO run order and starts depend on them). */
	#eventsChanged(owner: string): void {
		const {kind, namespace, name, context} = parseObjectKey(owner);
		const target = kind === 'ActionSet' || kind === 'Instance' ? this.#raw.of(context, kind).get(`${namespace}/${name}`) : undefined;
		if (target) {
			this.#adapt(context, kind as 'Instance' | 'ActionSet', target, false);
		} else {
			this.#changes.object(this.#version + 1, {key: owner, eventsOnly: true});
		}
	}

	/** `changed`: the raw object itself changed (false: only what it is read with, its events or definition). */
	#adapt(context: string | undefined, kind: 'Instance' | 'ActionSet', raw: KubeObject, changed = true): void {
		const ns = raw.metadata?.namespace ?? '';
		const key = objectKey({kind, namespace: ns, name: raw.metadata?.name ?? '', ...(context === undefined ? {} : {context})});
		const plain = kind === 'Instance'
			? this.#adaptInstance(context, key, raw, changed)
			: adaptActionSet(
				raw,
				name => this.#raw.of(context, 'Blueprint').get(blueprintKey(raw, name)),
				this.#events.events.get(key) ?? [],
				this.#actionSetMemo(key),
			);
		const previous = this.#objects.get(key);
		const shared: PlanObject = {...plain, tree: this.#nodes.share(plain.tree, previous?.tree)};
		const adapted: PlanObject = context === undefined ? shared : {context, ...shared};
		if (!previous) {
			this.#deleted.remove(key);
		}

		this.#objects.set(key, adapted);
		const before = this.#timings.get(key);
		const now = this.#clock.now();
		const timings = stampTimings(previous, adapted, before, now, t => {
			const state = t.state === undefined ? {} : {state: t.state};
			this.#transitions.record({key, object: adapted, path: t.path, from: t.from, to: t.to, at: now, timing: t.timing, ...state});
		});
		this.#timings.set(key, timings);
		if (previous) {
			this.#changes.object(this.#version + 1, {
				key,
				before: previous,
				after: adapted,
				timingBefore: before?.get(objectTimingId),
				timingAfter: timings.get(objectTimingId),
			});
		} else {
			this.#other();
		}
	}

	#actionSetMemo(key: string): ActionSetMemo {
		let memo = this.#actionSets.get(key);
		if (!memo) {
			memo = new ActionSetMemo();
			this.#actionSets.set(key, memo);
		}

		return memo;
	}

	#adaptInstance(context: string | undefined, key: string, raw: KubeObject, changed: boolean): PlanObject {
		const before = this.#runs.get(key);
		const events = this.#events.events.get(key);
		// The PlanStarted Events known when a run is seen starting tell its own Event from an earlier run's later.
		const started = events && events.length > 0 ? kudoEventsOf(raw, events).started : undefined;
		const memory = changed || before === undefined ? nextRunMemory(before, raw, started) : before;
		this.#runs.set(key, memory);
		const missing = context === undefined ? this.#missing : this.#contexts.missingOf(context);
		const eventsReadable = !missing.some(m => m.resource === 'Event');
		const previous = this.#objects.get(key)?.tree;
		return adaptInstance(raw, this.#raw.of(context, 'OperatorVersion').get(operatorVersionKey(raw)), {
			events: this.#events.events.get(key) ?? [],
			memory,
			eventsReadable,
			// Its unchanged nodes are reused: the shared nodes, timings, render gate and rows skip them by identity.
			...(previous === undefined ? {} : {previous}),
		});
	}
}
