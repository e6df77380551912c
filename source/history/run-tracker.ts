/**
 * Turns what the store saw into finished-run records for the ETA history. No I/O: `observe` returns the new
 * records; the caller files them (source/history/history-file.ts).
 *
 * A duration is recorded only when its start is known: seen starting (the node was seen pending first, or
 * restarting after it finished), or given by the object (Kanister "Started/Ended Phase" and "Started Action"
 * events). A node first seen already running started before planwatch looked: its timer would be short, so it is
 * left out. That is also how completed ActionSets still in the cluster seed the history: their phase and action
 * times come from their events; a KUDO Instance carries no start time for plans, phases or steps, so finished
 * KUDO plans found at start-up add nothing.
 */
import process from 'node:process';
import {objectKey, type PlanNode, type PlanObject} from '../model/plan-tree.js';
import {groupOf, maxRunMs, type RunRecord} from '../model/run-history.js';
import {isActiveState, isFinishedState} from '../model/status.js';
import type {NodeTiming, StoreSnapshot} from '../state/store.js';

/**
 * What the tracker keeps per object: the adaptation it saw last (the store holds it anyway; the states seen last
 * are read from its tree) and the late nodes, only where there are any. Thousands of watched objects cost
 * one small record each, not a map and a set each (~600 bytes an object).
 */
type Seen = {
	object: PlanObject;
	/** Nodes whose run planwatch did not see start (first seen running or done) and the object does not time. */
	late: LateNodes | undefined;
};

/**
 * Late node ids: an array while there are few (every object listed already finished has all its nodes late, and a
 * set of three ids costs ~230 bytes against ~60 for an array), a set beyond, so a plan of thousands of steps
 * looks its nodes up in constant time.
 */
type LateNodes = string[] | Set<string>;

const lateArrayLimit = 16;

function withLate(late: LateNodes | undefined, id: string): LateNodes {
	if (late === undefined) {
		return [id];
	}

	if (Array.isArray(late)) {
		if (late.length < lateArrayLimit) {
			late.push(id);
			return late;
		}

		late = new Set(late);
	}

	late.add(id);
	return late;
}

function isLate(late: LateNodes | undefined, id: string): boolean {
	return late !== undefined && (Array.isArray(late) ? late.includes(id) : late.has(id));
}

/** `late` without `id`; undefined once empty. */
function withoutLate(late: LateNodes | undefined, id: string): LateNodes | undefined {
	if (Array.isArray(late)) {
		const i = late.indexOf(id);
		if (i !== -1) {
			late.splice(i, 1);
		}

		return late.length === 0 ? undefined : late;
	}

	late?.delete(id);
	return late?.size === 0 ? undefined : late;
}

function statesOf(nodes: readonly PlanNode[], into = new Map<string, PlanNode['state']>()): Map<string, PlanNode['state']> {
	for (const node of nodes) {
		into.set(node.id, node.state);
		statesOf(node.children, into);
	}

	return into;
}

/**
 * node:crypto, loaded when the first run is filed rather than at start-up: loading it costs ~12 ms of CPU, before
 * the first frame when imported, and most sessions file their first run long after it.
 */
let crypto: typeof import('node:crypto') | undefined;

/** An opaque run id: the file keeps no uid or object name, only that two records are the same run. */
function runId(parts: string): string {
	crypto ??= process.getBuiltinModule('node:crypto');
	return crypto.createHash('sha256').update(parts).digest('base64url').slice(0, 22);
}

export class RunTracker {
	readonly #seen = new Map<string, Seen>();
	/**
	 * Runs already returned by this tracker (a finished node stays finished across many adaptations), by what
	 * names the run (runId's parts, joined): an update to a finished object is told apart without hashing again.
	 */
	readonly #done = new Set<string>();
	readonly #realm: string;

	/** `realm`: prefix of the group the runs are filed under (`demo/` for the demo; see RunHistory). */
	constructor(realm = '') {
		this.#realm = realm;
	}

	/** Adaptations already walked: an unchanged object costs one WeakSet lookup per call. */
	readonly #observed = new WeakSet<PlanObject>();
	#lastObjects: readonly PlanObject[] | undefined;
	/** The store version of the last snapshot observed (when the snapshot said it). */
	#lastVersion: number | undefined;

	/**
	 * New finished runs in this snapshot. Only objects whose adaptation changed since the last call are walked: those
	 * the store's change log names when it reaches back to the last call (the source feeds the tracker after every
	 * event, so one object), else every object that is not the one at its place in the last snapshot.
	 */
	observe(snapshot: Pick<StoreSnapshot, 'objects' | 'timings'> & Partial<Pick<StoreSnapshot, 'version' | 'changes'>>): RunRecord[] {
		if (snapshot.objects === this.#lastObjects) {
			this.#lastVersion = snapshot.version;
			return [];
		}

		const previous = this.#lastObjects;
		const changes = this.#lastVersion === undefined || snapshot.version === undefined
			? undefined
			: snapshot.changes?.between(this.#lastVersion, snapshot.version);
		this.#lastObjects = snapshot.objects;
		this.#lastVersion = snapshot.version;
		const out: RunRecord[] = [];
		if (changes) {
			// Objects re-adapted in place: the last adaptation of each is the one in the store now.
			const latest = new Map<string, PlanObject>();
			for (const change of changes) {
				if (!('eventsOnly' in change)) {
					latest.set(change.key, change.after);
				}
			}

			for (const object of latest.values()) {
				this.#observeObject(object, snapshot.timings, out);
			}

			return out;
		}

		// The store replaces a changed object in place in a copy of its sorted array: with the same length, an
		// identical slot is an unchanged object (a pointer comparison, cheaper than the set lookup).
		const sameShape = previous?.length === snapshot.objects.length;
		const {objects} = snapshot;
		for (let i = 0; i < objects.length; i++) {
			const object = objects[i]!;
			if (!(sameShape && previous[i] === object)) {
				this.#observeObject(object, snapshot.timings, out);
			}
		}

		// Deleted objects: forget them (a new object of the same name is a new run).
		if (this.#seen.size > snapshot.objects.length) {
			const present = new Set(snapshot.objects.map(o => objectKey(o)));
			for (const key of this.#seen.keys()) {
				if (!present.has(key)) {
					this.#seen.delete(key);
				}
			}
		}

		return out;
	}

	#observeObject(object: PlanObject, timings: StoreSnapshot['timings'], out: RunRecord[]): void {
		if (this.#observed.has(object)) {
			return;
		}

		this.#observed.add(object);
		const key = objectKey(object);
		let entry = this.#seen.get(key);
		const last = entry?.object.tree;
		// The states before, by id: only when a node is not found at its place in the last tree (its ids moved).
		let states: Map<string, PlanNode['state']> | undefined;
		const stateBefore = (node: PlanNode, olds: readonly PlanNode[] | undefined, i: number): PlanNode['state'] | undefined => {
			const here = olds?.[i];
			if (here?.id === node.id) {
				return here.state;
			}

			states ??= last ? statesOf(last) : new Map();
			return states.get(node.id);
		};

		if (entry) {
			entry.object = object;
		} else {
			entry = {object, late: undefined};
			this.#seen.set(key, entry);
		}

		this.#update(entry, object.tree, last, stateBefore);
		out.push(...this.#finished(key, object, entry, timings.get(key)));
	}

	/**
	 * `olds`: the same level of the adaptation seen before (none for an object seen the first time); `stateBefore`:
	 * a node's state there. A node that is the very node it was there (the store keeps unchanged nodes by identity:
	 * state/node-timings.ts) was looked at then, and nothing under it changed: it is skipped, its subtree unwalked.
	 */
	#update(
		entry: Seen,
		nodes: readonly PlanNode[],
		olds: readonly PlanNode[] | undefined,
		stateBefore: (node: PlanNode, olds: readonly PlanNode[] | undefined, i: number) => PlanNode['state'] | undefined,
	): void {
		for (let i = 0; i < nodes.length; i++) {
			const node = nodes[i]!;
			const old = olds?.[i];
			if (old === node) {
				continue;
			}

			const before = stateBefore(node, olds, i);
			if (before === undefined) {
				// First seen running or already done: its run is known only if the object gives start and end.
				if (
					(isActiveState(node.state) && node.startedAt === undefined) ||
					(isFinishedState(node.state) && (node.startedAt === undefined || node.endedAt === undefined))
				) {
					entry.late = withLate(entry.late, node.id);
				}
			} else if (isFinishedState(before) && isActiveState(node.state)) {
				// Seen starting again: this run's timer is complete.
				entry.late = withoutLate(entry.late, node.id);
			} else if (node.startedAt !== undefined && (isActiveState(node.state) || node.endedAt !== undefined)) {
				// The object's events arrived after the object: they time the node.
				entry.late = withoutLate(entry.late, node.id);
			}

			this.#update(entry, node.children, old?.id === node.id ? old.children : undefined, stateBefore);
		}
	}

	#finished(key: string, object: PlanObject, entry: Seen, timings: ReadonlyMap<string, NodeTiming> | undefined): RunRecord[] {
		const out: RunRecord[] = [];
		object.tree.forEach((top, index) => {
			if (top.state !== 'succeeded' && top.state !== 'failed') {
				return;
			}

			const topTiming = timings?.get(top.id);
			// KUDO: one Instance runs a plan many times; its planStatus uid names this execution. The creation time
			// tells apart objects that come back with the same uid (the demo plays the same script every time).
			const planUid = object.wait.kind === 'Instance' ? object.wait.planUids[top.name] : undefined;
			const parts = [
				key,
				object.uid ?? '',
				object.createdAt ?? '',
				String(index),
				top.name,
				planUid ?? String(topTiming?.startedAt ?? ''),
			].join('\n');
			if (this.#done.has(parts)) {
				return;
			}

			const durations: Array<{path: string[]; ms: number}> = [];
			const visit = (node: PlanNode, path: string[]): void => {
				const t = timings?.get(node.id);
				if (
					isFinishedState(node.state) &&
					node.state !== 'stopped' &&
					!isLate(entry.late, node.id) &&
					t?.startedAt !== undefined &&
					t.endedAt !== undefined &&
					t.endedAt >= t.startedAt &&
					t.endedAt - t.startedAt <= maxRunMs
				) {
					durations.push({path, ms: t.endedAt - t.startedAt});
				}

				for (const c of node.children) {
					visit(c, [...path, c.name]);
				}
			};

			visit(top, []);
			// Nothing known yet (an ActionSet listed before its events): a later adaptation may know more.
			if (durations.length === 0) {
				return;
			}

			this.#done.add(parts);
			const id = runId(parts);

			const endedAt = topTiming?.endedAt;
			out.push({
				v: 1,
				kind: object.kind,
				group: groupOf(object, this.#realm),
				top: top.name,
				run: id,
				at: new Date(endedAt ?? Date.now()).toISOString(),
				outcome: top.state,
				durations,
			});
		});
		return out;
	}
}
