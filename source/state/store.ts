import type {ConnectionState, SourceEvent} from './object-source.js';
import type {ExitCode} from '../core/exit-codes.js';
import type {KubeObject, ResourceKind} from '../core/kube-object.js';
import {adaptActionSet} from '../model/adapt-kanister-action-set.js';
import {adaptEvent} from '../model/adapt-event.js';
import {adaptInstance} from '../model/adapt-kudo-instance.js';
import {nextRunMemory, type KudoRunMemory} from '../model/kudo-plan-order.js';
import {contextSeparator, objectKey, parseObjectKey, type PlanEvent, type PlanNode, type PlanObject} from '../model/plan-tree.js';
import {blueprintKey, namespacedName, operatorVersionKey, readsBlueprintsOf, runsOperatorVersion} from '../model/object-references.js';
import {isoMs} from '../model/iso-time.js';
import {SharedNodes} from '../model/shared-nodes.js';
import {isActiveState, isFinishedState} from '../model/status.js';
import type {Clock} from '../core/clock.js';
import {Listeners} from '../core/external-store.js';

/** When a node started and ended, in clock milliseconds. Observed by the client unless the object said so. */
export type NodeTiming = {
	readonly startedAt?: number;
	readonly endedAt?: number;
	/** How many times planwatch saw this node enter `retrying` in its current run (KUDO ERROR). */
	readonly retries?: number;
	/**
	 * The start is not known: the node was already being worked on when planwatch first saw it, and neither the
	 * object nor its events say when it started. `startedAt` is then the earliest moment known (first sight, or a
	 * child's recorded start), and the duration a lower bound (`≥6m30s`).
	 */
	readonly atLeast?: true;
};

/** Object-level timing is stored under this node id. */
export const objectTimingId = '';

/** One observed status change of a node (or of an object: empty path). */
export type Transition = {
	readonly seq: number;
	/** The object's kubeconfig context, when planwatch watches several. */
	readonly context?: string;
	readonly at: number;
	readonly objectKey: string;
	readonly kind: string;
	readonly namespace: string;
	readonly name: string;
	/** Names from the top-level node down to the changed node. */
	readonly path: readonly string[];
	readonly from: string;
	readonly to: string;
	/** How long the node was in its previous, active state, when known. */
	readonly durationMs?: number;
	/** durationMs is a lower bound (the start was not seen: NodeTiming.atLeast). */
	readonly atLeast?: true;
};

export type StoreSnapshot = {
	/** Increments on every change; cheap identity for memoization. */
	readonly version: number;
	/** Instances and ActionSets, sorted by kind, namespace, name. */
	readonly objects: readonly PlanObject[];
	/** objectKey → node id → timing (`objectTimingId` for the object itself). */
	readonly timings: ReadonlyMap<string, ReadonlyMap<string, NodeTiming>>;
	/** objectKey → events about it, oldest first. */
	readonly events: ReadonlyMap<string, readonly PlanEvent[]>;
	readonly connection: ConnectionState;
	/** Clock time of the last event received from the source, if any. */
	readonly lastEventAt?: number;
	/** The source has listed everything once. */
	readonly synced: boolean;
	readonly fatal?: {readonly message: string; readonly exitCode: ExitCode};
	/** Supporting collections the source cannot read (403): what is missing and why. Absent = none. */
	readonly missing?: ReadonlyArray<{readonly resource: ResourceKind; readonly message: string}>;
	/** Recent transitions, oldest first (bounded). */
	readonly transitions: readonly Transition[];
	/**
	 * Instances and ActionSets the source saw deleted (a DELETED watch event, or gone from a relist), by objectKey,
	 * with the last state seen; an object of the same key listed again leaves it. Absent = none (bounded).
	 */
	readonly deleted?: ReadonlyMap<string, DeletedObject>;
	/**
	 * Several kubeconfig contexts: each one's own state, in the order the source named them. `connection`, `synced`
	 * and `fatal` above are then the whole run's (the source folds them). Absent with one context.
	 */
	readonly contexts?: readonly ContextState[];
};

/** A watched object that is gone: its last adaptation and when planwatch saw it go (clock ms). */
export type DeletedObject = {readonly object: PlanObject; readonly at: number};

/** Status word of the transition a deletion records. */
export const deletedStatus = 'DELETED';

/** One kubeconfig context of a run that watches several. */
export type ContextState = {
	readonly name: string;
	readonly connection: ConnectionState;
	readonly synced: boolean;
	/** This context gave up (unreachable for good, 403, bad credentials…): the others keep going. */
	readonly fatal?: {readonly message: string; readonly exitCode: ExitCode};
	readonly missing?: ReadonlyArray<{readonly resource: ResourceKind; readonly message: string}>;
};

const maxTransitions = 2000;
const maxDeleted = 1000;
const maxEventsPerObject = 200;

/** `namespace/name` → the raw object, for one kind. */
type RawByName = Map<string, KubeObject>;

/** Raw objects of one context (undefined: the run's only one), by kind. */
type RawByKind = Map<ResourceKind, RawByName>;

function rawByKind(): RawByKind {
	return new Map<ResourceKind, RawByName>([
		['Instance', new Map()],
		['OperatorVersion', new Map()],
		['ActionSet', new Map()],
		['Blueprint', new Map()],
		['Event', new Map()],
	]);
}

/**
 * Objects keyed by namespace/name, fed by any ObjectSource. Adapts raw objects (the sanitizing boundary),
 * stamps transitions with the clock and notifies subscribers once per batch of source events.
 */
export class Store {
	readonly #clock: Clock;
	/** By context: an Instance only ever reads the OperatorVersions, an ActionSet the Blueprints, of its own cluster. */
	readonly #rawByContext = new Map<string | undefined, RawByKind>();
	#contexts: ContextState[] = [];

	readonly #objects = new Map<string, PlanObject>();
	/** One copy of each distinct plan node across all objects and adaptations. */
	readonly #nodes = new SharedNodes();
	readonly #timings = new Map<string, Map<string, NodeTiming>>();
	readonly #events = new Map<string, PlanEvent[]>();
	/** objectKey → event `namespace/name` → adapted event; and which object each event is about. */
	readonly #eventIndex = new Map<string, Map<string, PlanEvent>>();
	readonly #eventOwner = new Map<string, string>();
	/** objectKey → what planwatch saw of an Instance's plan runs (the order they started in). */
	readonly #runs = new Map<string, KudoRunMemory>();
	#transitions: Transition[] = [];
	#deleted = new Map<string, DeletedObject>();
	#seq = 0;
	#connection: ConnectionState = {status: 'connecting'};
	#lastEventAt: number | undefined;
	#synced = false;
	#fatal: {message: string; exitCode: ExitCode} | undefined;
	#missing: ReadonlyArray<{readonly resource: ResourceKind; readonly message: string}> = [];
	#version = 0;
	#snapshot: StoreSnapshot | undefined;
	#sorted: PlanObject[] | undefined;
	readonly #listeners = new Listeners();
	#notifyQueued = false;

	constructor(clock: Clock) {
		this.#clock = clock;
	}

	/** Apply one source event. Subscribers are notified once per microtask batch. */
	readonly apply = (event: SourceEvent): void => {
		const {context} = event;
		if (context !== undefined && event.type !== 'upsert' && event.type !== 'delete' && event.type !== 'replace') {
			this.#applyToContext(context, event);
			this.#changed();
			return;
		}

		switch (event.type) {
			case 'upsert': {
				this.#lastEventAt = this.#clock.now();
				this.#upsert(context, event.resource, event.object);
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
				break;
			}

			case 'connection': {
				this.#connection = event.state;
				break;
			}

			case 'fatal': {
				this.#fatal = {message: event.message, exitCode: event.exitCode};
				break;
			}

			case 'missing': {
				this.#missing = [
					...this.#missing.filter(m => m.resource !== event.resource),
					{resource: event.resource, message: event.message},
				];
				break;
			}
		}

		this.#changed();
	};

	/** A state event of one context of several: kept with that context (the source sends the run's fold apart). */
	#applyToContext(name: string, event: Exclude<SourceEvent, {type: 'upsert' | 'delete' | 'replace'}>): void {
		let index = this.#contexts.findIndex(c => c.name === name);
		if (index === -1) {
			index = this.#contexts.push({name, connection: {status: 'connecting'}, synced: false}) - 1;
		}

		const before = this.#contexts[index]!;
		let after: ContextState = before;
		switch (event.type) {
			case 'connection': {
				after = {...before, connection: event.state};
				break;
			}

			case 'synced': {
				after = {...before, synced: true};
				break;
			}

			case 'fatal': {
				after = {...before, fatal: {message: event.message, exitCode: event.exitCode}};
				break;
			}

			case 'missing': {
				after = {
					...before,
					missing: [
						...(before.missing ?? []).filter(m => m.resource !== event.resource),
						{resource: event.resource, message: event.message},
					],
				};
				break;
			}
		}

		this.#contexts = this.#contexts.map((c, i) => (i === index ? after : c));
	}

	#raw(context: string | undefined, kind: ResourceKind): RawByName {
		let byKind = this.#rawByContext.get(context);
		if (!byKind) {
			byKind = rawByKind();
			this.#rawByContext.set(context, byKind);
		}

		return byKind.get(kind)!;
	}

	readonly subscribe = (listener: () => void): (() => void) => {
		return this.#listeners.add(listener);
	};

	readonly getSnapshot = (): StoreSnapshot => {
		this.#snapshot ??= {
			version: this.#version,
			objects: (this.#sorted ??= [...this.#objects.values()].sort(compareObjects)),
			timings: this.#timings,
			events: this.#events,
			connection: this.#connection,
			lastEventAt: this.#lastEventAt,
			synced: this.#synced,
			fatal: this.#fatal,
			...(this.#missing.length === 0 ? {} : {missing: this.#missing}),
			transitions: this.#transitions,
			...(this.#deleted.size === 0 ? {} : {deleted: this.#deleted}),
			...(this.#contexts.length === 0 ? {} : {contexts: this.#contexts}),
		};
		return this.#snapshot;
	};

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

	#upsert(context: string | undefined, resource: ResourceKind, object: KubeObject): void {
		this.#raw(context, resource).set(namespacedName(object), object);
		this.#refreshFor(context, resource, object);
	}

	#delete(context: string | undefined, resource: ResourceKind, object: KubeObject): void {
		this.#raw(context, resource).delete(namespacedName(object));
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
				this.#record({
					key,
					object: last,
					path: [],
					from: last.status,
					to: deletedStatus,
					at,
					timing: this.#timings.get(key)?.get(objectTimingId),
				});
				// A new map: snapshots already handed out keep theirs.
				const deleted = new Map(this.#deleted);
				deleted.delete(key);
				deleted.set(key, {object: last, at});
				for (const oldest of deleted.keys()) {
					if (deleted.size <= maxDeleted) {
						break;
					}

					deleted.delete(oldest);
				}

				this.#deleted = deleted;
			}

			this.#objects.delete(key);
			this.#timings.delete(key);
			this.#runs.delete(key);
			this.#sorted = undefined;
		} else {
			this.#refreshFor(context, resource, object);
		}
	}

	#replace(context: string | undefined, resource: ResourceKind, namespace: string | undefined, objects: readonly KubeObject[]): void {
		const raw = this.#raw(context, resource);
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
				for (const inst of this.#raw(context, 'Instance').values()) {
					if (runsOperatorVersion(inst, object)) {
						this.#adapt(context, 'Instance', inst, false);
					}
				}

				break;
			}

			case 'Blueprint': {
				for (const as of this.#raw(context, 'ActionSet').values()) {
					if (readsBlueprintsOf(as, object)) {
						this.#adapt(context, 'ActionSet', as);
					}
				}

				break;
			}

			case 'Event': {
				this.#indexEvent(context, object, this.#raw(context, 'Event').has(namespacedName(object)));
				break;
			}
		}
	}

	/**
	 * Keep the events of one object up to date. Events are indexed by their own key and adapted once, so a list of
	 * thousands of events costs one adaptation each, not a rescan of all events per event.
	 */
	#indexEvent(context: string | undefined, raw: KubeObject, present: boolean): void {
		const eventKey = (context === undefined ? '' : context + contextSeparator) + namespacedName(raw);
		const before = this.#eventOwner.get(eventKey);
		const e = present ? adaptEvent(raw) : undefined;
		const owner = e && (e.involvedKind === 'Instance' || e.involvedKind === 'ActionSet')
			? objectKey({kind: e.involvedKind, namespace: e.namespace, name: e.involvedName, ...(context === undefined ? {} : {context})})
			: undefined;
		if (before !== undefined && before !== owner) {
			this.#eventIndex.get(before)?.delete(eventKey);
			this.#eventOwner.delete(eventKey);
			this.#publishEvents(before);
		}

		if (owner !== undefined && e) {
			let events = this.#eventIndex.get(owner);
			if (!events) {
				events = new Map();
				this.#eventIndex.set(owner, events);
			}

			events.set(eventKey, e);
			this.#eventOwner.set(eventKey, owner);
			this.#publishEvents(owner);
		}
	}

	/** The object's events, oldest first; the object is re-adapted (deferPhase states, KUDO run order and starts depend on them). */
	#publishEvents(owner: string): void {
		const list = [...(this.#eventIndex.get(owner)?.values() ?? [])];
		list.sort((a, b) => (isoMs(a.time) ?? 0) - (isoMs(b.time) ?? 0));
		if (list.length === 0) {
			this.#events.delete(owner);
			this.#eventIndex.delete(owner);
		} else {
			this.#events.set(owner, list.slice(-maxEventsPerObject));
		}

		const {kind, namespace, name, context} = parseObjectKey(owner);
		const target = kind === 'ActionSet' || kind === 'Instance' ? this.#raw(context, kind).get(`${namespace}/${name}`) : undefined;
		if (target) {
			this.#adapt(context, kind as 'Instance' | 'ActionSet', target, false);
		}
	}

	/** `changed`: the raw object itself changed (false: only what it is read with, its events or definition). */
	#adapt(context: string | undefined, kind: 'Instance' | 'ActionSet', raw: KubeObject, changed = true): void {
		const ns = raw.metadata?.namespace ?? '';
		const key = objectKey({kind, namespace: ns, name: raw.metadata?.name ?? '', ...(context === undefined ? {} : {context})});
		const plain = kind === 'Instance'
			? this.#adaptInstance(context, key, raw, changed)
			: adaptActionSet(raw, name => this.#raw(context, 'Blueprint').get(blueprintKey(raw, name)), this.#events.get(key) ?? []);
		const shared: PlanObject = {...plain, tree: this.#nodes.share(plain.tree)};
		const adapted: PlanObject = context === undefined ? shared : {context, ...shared};
		const previous = this.#objects.get(key);
		if (!previous && this.#deleted.has(key)) {
			const deleted = new Map(this.#deleted);
			deleted.delete(key);
			this.#deleted = deleted;
		}

		this.#objects.set(key, adapted);
		if (!previous) {
			this.#sorted = undefined;
		} else if (this.#sorted) {
			const i = indexInSorted(this.#sorted, previous);
			if (i === -1) {
				this.#sorted = undefined;
			} else {
				// Copy first: earlier snapshots hold the old array and must not change under their readers.
				this.#sorted = [...this.#sorted];
				this.#sorted[i] = adapted;
			}
		}

		this.#stamp(key, previous, adapted);
	}

	#adaptInstance(context: string | undefined, key: string, raw: KubeObject, changed: boolean): PlanObject {
		const before = this.#runs.get(key);
		const memory = changed || before === undefined ? nextRunMemory(before, raw) : before;
		this.#runs.set(key, memory);
		const eventsReadable = !this.#missingFor(context).some(m => m.resource === 'Event');
		return adaptInstance(raw, this.#raw(context, 'OperatorVersion').get(operatorVersionKey(raw)), {
			events: this.#events.get(key) ?? [],
			memory,
			eventsReadable,
		});
	}

	#missingFor(context: string | undefined): ReadonlyArray<{readonly resource: ResourceKind}> {
		return context === undefined ? this.#missing : (this.#contexts.find(c => c.name === context)?.missing ?? []);
	}

	/** Update timers and record transitions between the previous and the new adaptation. */
	#stamp(key: string, previous: PlanObject | undefined, next: PlanObject): void {
		const now = this.#clock.now();
		const timings = new Map(this.#timings.get(key) ?? []);
		const before = new Map<string, PlanNode>();
		if (previous) {
			walk(previous.tree, [], node => before.set(node.id, node));
		}

		const objectTiming = timings.get(objectTimingId);
		if (previous && previous.status !== next.status) {
			this.#record({key, object: next, path: [], from: previous.status, to: next.status, at: now, timing: objectTiming});
		}

		walk(next.tree, [], (node, path) => {
			const old = before.get(node.id);
			const t = timings.get(node.id);
			const given = {startedAt: isoMs(node.startedAt), endedAt: isoMs(node.endedAt)};
			let timing: NodeTiming | undefined = t;
			if (isActiveState(node.state)) {
				// A node that is (again) being worked on: keep its start, forget any earlier end (a new run). One
				// first seen already at work has no known start: first sight is only a lower bound.
				const kept = t && t.endedAt === undefined ? t : undefined;
				const startedAt = given.startedAt ?? kept?.startedAt ?? now;
				const atLeast = given.startedAt === undefined && (kept ? kept.atLeast === true : old === undefined);
				timing = atLeast ? {startedAt, atLeast} : {startedAt};
			} else if (isFinishedState(node.state)) {
				const startedAt = given.startedAt ?? t?.startedAt;
				const endedAt = given.endedAt ?? t?.endedAt ?? (startedAt === undefined ? undefined : now);
				const atLeast = given.startedAt === undefined && t?.atLeast === true;
				timing = startedAt === undefined && endedAt === undefined ? undefined : {startedAt, endedAt, ...(atLeast ? {atLeast} : {})};
			} else if (node.state === 'pending' || node.state === 'inactive') {
				timing = given.startedAt === undefined ? undefined : {startedAt: given.startedAt, endedAt: given.endedAt};
			}

			if (node.state === 'retrying' && timing) {
				const run = t && t.endedAt === undefined ? (t.retries ?? 0) : 0;
				timing = {...timing, retries: old?.state === 'retrying' ? Math.max(run, 1) : run + 1};
			} else if (timing && t?.retries && timing.endedAt === undefined && isActiveState(node.state)) {
				timing = {...timing, retries: t.retries};
			}

			if (timing) {
				timings.set(node.id, timing);
			} else {
				timings.delete(node.id);
			}

			if (old && old.status !== node.status) {
				this.#record({key, object: next, path, from: old.status, to: node.status, at: now, timing: t});
			}
		});
		earliestFromChildren(next.tree, timings);
		this.#stampObject(timings, objectTiming, previous, next, now);
		this.#timings.set(key, timings);
	}

	/**
	 * The object's own clock. An ActionSet runs once: from creation (or first sight) to the first finished outcome
	 * seen. An Instance lives for days and runs plan after plan: its clock is its active plan's.
	 */
	#stampObject(
		timings: Map<string, NodeTiming>,
		current: NodeTiming | undefined,
		previous: PlanObject | undefined,
		next: PlanObject,
		now: number,
	): void {
		if (next.kind === 'Instance') {
			const active = next.tree.find(n => n.active);
			const plan = active ? timings.get(active.id) : undefined;
			if (plan) {
				timings.set(objectTimingId, plan);
			} else {
				timings.delete(objectTimingId);
			}

			return;
		}

		const timing = current ?? {startedAt: isoMs(next.createdAt) ?? now};
		if (next.outcome === 'succeeded' || next.outcome === 'failed') {
			if (timing.endedAt === undefined) {
				timings.set(objectTimingId, {...timing, endedAt: previous ? now : (isoMs(next.updatedAt) ?? now)});
			}
		} else {
			timings.set(objectTimingId, {startedAt: timing.startedAt});
		}
	}

	#record(
		r: {key: string; object: PlanObject; path: string[]; from: string; to: string; at: number; timing: NodeTiming | undefined},
	): void {
		const durationMs = r.timing?.startedAt !== undefined && r.timing.endedAt === undefined ? r.at - r.timing.startedAt : undefined;
		this.#transitions.push({
			seq: ++this.#seq,
			...(r.object.context === undefined ? {} : {context: r.object.context}),
			at: r.at,
			objectKey: r.key,
			kind: r.object.kind,
			namespace: r.object.namespace,
			name: r.object.name,
			path: r.path,
			from: r.from,
			to: r.to,
			durationMs,
			...(durationMs !== undefined && r.timing?.atLeast ? {atLeast: true as const} : {}),
		});
		if (this.#transitions.length > maxTransitions) {
			this.#transitions = this.#transitions.slice(-maxTransitions);
		} else {
			this.#transitions = [...this.#transitions];
		}
	}
}

/**
 * A node whose start is unknown started no later than any of its children: a Kanister action without its
 * `Started Action` event under a phase its `Started Phase` event timed reads at least the phase's time.
 * Returns the earliest start under `nodes` (undefined when none is known).
 */
function earliestFromChildren(nodes: readonly PlanNode[], timings: Map<string, NodeTiming>): number | undefined {
	let earliest: number | undefined;
	for (const node of nodes) {
		const below = earliestFromChildren(node.children, timings);
		const t = timings.get(node.id);
		if (t?.atLeast && t.startedAt !== undefined && below !== undefined && below < t.startedAt) {
			timings.set(node.id, {...t, startedAt: below});
		}

		const start = timings.get(node.id)?.startedAt;
		for (const candidate of [start, below]) {
			if (candidate !== undefined && (earliest === undefined || candidate < earliest)) {
				earliest = candidate;
			}
		}
	}

	return earliest;
}

function walk(nodes: readonly PlanNode[], path: string[], visit: (node: PlanNode, path: string[]) => void): void {
	for (const n of nodes) {
		const p = [...path, n.name];
		visit(n, p);
		walk(n.children, p, visit);
	}
}

/** Where `object` is in a list sorted by compareObjects: a binary search (thousands of objects, an update each). */
function indexInSorted(sorted: readonly PlanObject[], object: PlanObject): number {
	let low = 0;
	let high = sorted.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		if (compareObjects(sorted[middle]!, object) < 0) {
			low = middle + 1;
		} else {
			high = middle;
		}
	}

	return sorted[low] === object ? low : sorted.indexOf(object);
}

/** Several contexts: each context's objects together, then as with one. */
function compareObjects(a: PlanObject, b: PlanObject): number {
	return (a.context ?? '').localeCompare(b.context ?? '') ||
		a.kind.localeCompare(b.kind) ||
		a.namespace.localeCompare(b.namespace) ||
		a.name.localeCompare(b.name);
}
