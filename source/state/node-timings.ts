/**
 * The clock of every node: when it started and ended as planwatch saw it (or as the object says), retries, and
 * the status changes between two adaptations of one object. Pure but for the callback that records transitions.
 */
import {isoMs} from '../model/iso-time.js';
import type {NodeState, PlanNode, PlanObject} from '../model/plan-tree.js';
import {isActiveState, isFinishedState, statusText} from '../model/status.js';
import {objectTimingId, type NodeTiming} from './store-snapshot.js';

/**
 * A status change seen between two adaptations; `timing`: the node's before it. `state`: set for a change of state
 * under the same raw word (from/to then carry the reason).
 */
export type SeenTransition = {
	readonly path: string[];
	readonly from: string;
	readonly to: string;
	readonly timing: NodeTiming | undefined;
	readonly state?: NodeState;
};

/**
 * The timings of `next` from those of `previous` (its earlier adaptation, if any) at `now`: a new map, the old
 * one untouched. Each status change is handed to `record`, the object's own first.
 *
 * A node kept by identity since `previous` (the store keeps a plan's unchanged nodes: model/shared-nodes.ts, and
 * the KUDO adapter reuses unchanged steps) keeps its timing and has no transition, and so does everything under it:
 * its subtree is not walked. The two trees are walked side by side, each node matched with the previous node at
 * the same place when the ids agree (a whole index of the previous tree only when they do not): a change to one
 * step of a 500-step plan reads that step, its ancestors and their children lists.
 */
export function stampTimings(
	previous: PlanObject | undefined,
	next: PlanObject,
	before: ReadonlyMap<string, NodeTiming> | undefined,
	now: number,
	record: (transition: SeenTransition) => void,
): Map<string, NodeTiming> {
	const timings = new Map(before ?? []);
	let index: Map<string, PlanNode> | undefined;
	const oldOf = (node: PlanNode, siblings: readonly PlanNode[] | undefined, i: number): PlanNode | undefined => {
		const here = siblings?.[i];
		if (here !== undefined && here.id === node.id) {
			return here;
		}

		if (!previous) {
			return undefined;
		}

		if (!index) {
			index = new Map();
			walk(previous.tree, n => index!.set(n.id, n));
		}

		return index.get(node.id);
	};

	// The earliest start under each node of `previous`; a node not kept from there is worked out again (the same node
	// object may come back from an older adaptation, shared: model/shared-nodes.ts).
	const known = (previous && before ? earliestKnown.get(before) : undefined) ?? new WeakMap<PlanNode, number>();
	const objectTiming = timings.get(objectTimingId);
	if (previous && previous.status !== next.status) {
		record({path: [], from: previous.status, to: next.status, timing: objectTiming});
	}

	const visit = (nodes: readonly PlanNode[], olds: readonly PlanNode[] | undefined, parent: Trail | undefined): void => {
		for (let i = 0; i < nodes.length; i++) {
			const node = nodes[i]!;
			// Kept at its place (the usual case), checked before any field of it is read.
			const old = olds?.[i] === node ? node : oldOf(node, olds, i);
			if (old === node) {
				continue;
			}

			known.delete(node);
			const trail: Trail = {name: node.name, parent};
			const t = timings.get(node.id);
			const timing = nodeTiming(node, old, t, now);
			if (timing) {
				timings.set(node.id, timing);
			} else {
				timings.delete(node.id);
			}

			if (old && old.status !== node.status) {
				record({path: pathOf(trail), from: old.status, to: node.status, timing: t});
			} else if (old && old.state !== node.state) {
				// The same raw word, another state (the controller never writes a deferPhase `running`): the log
				// must still say it started, in the words the views use.
				record({path: pathOf(trail), from: statusText(old), to: statusText(node), timing: t, state: node.state});
			}

			visit(node.children, old?.children, trail);
		}
	};

	visit(next.tree, previous?.tree, undefined);
	earliestKnown.set(timings, known);
	earliestFromChildren(next.tree, timings, known);
	stampObject(timings, objectTiming, previous, next, now);
	return timings;
}

/** A node's place: its name and its parent's, made into a path only for a transition. */
type Trail = {readonly name: string; readonly parent: Trail | undefined};

function pathOf(trail: Trail): string[] {
	const path: string[] = [];
	for (let t: Trail | undefined = trail; t; t = t.parent) {
		path.push(t.name);
	}

	return path.reverse();
}

/** One node's timing now, from its state, what the object says and what was recorded (`t`). */
function nodeTiming(node: PlanNode, old: PlanNode | undefined, t: NodeTiming | undefined, now: number): NodeTiming | undefined {
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

	return timing;
}

/**
 * The object's own clock. An ActionSet runs once: from creation (or first sight) to the first finished outcome
 * seen. An Instance lives for days and runs plan after plan: its clock is its active plan's.
 */
function stampObject(
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

/**
 * A node whose start is unknown started no later than any of its children: a Kanister action without its
 * `Started Action` event under a phase its `Started Phase` event timed reads at least the phase's time.
 * Returns the earliest start under `nodes` (undefined when none is known). `known`: the earliest start of each
 * subtree (its root included) seen before: a node kept by identity has the timings it had, and so does its subtree.
 */
function earliestFromChildren(
	nodes: readonly PlanNode[],
	timings: Map<string, NodeTiming>,
	known: WeakMap<PlanNode, number>,
): number | undefined {
	let earliest: number | undefined;
	for (let i = 0; i < nodes.length; i++) {
		const node = nodes[i]!;
		let start = known.get(node);
		if (start === undefined) {
			const below = earliestFromChildren(node.children, timings, known);
			const t = timings.get(node.id);
			if (t?.atLeast && t.startedAt !== undefined && below !== undefined && below < t.startedAt) {
				timings.set(node.id, {...t, startedAt: below});
			}

			const own = timings.get(node.id)?.startedAt;
			start = (own === undefined || (below !== undefined && below < own) ? below : own) ?? noStart;
			known.set(node, start);
		}

		if (start !== noStart && (earliest === undefined || start < earliest)) {
			earliest = start;
		}
	}

	return earliest;
}

/** In `known`: no start anywhere in the subtree (one lookup tells it from a subtree not seen). */
const noStart = Number.POSITIVE_INFINITY;

/** Per timings map (each object's latest): the earliest start under each node, carried to the next map. */
const earliestKnown = new WeakMap<ReadonlyMap<string, NodeTiming>, WeakMap<PlanNode, number>>();

function walk(nodes: readonly PlanNode[], visit: (node: PlanNode) => void): void {
	for (const n of nodes) {
		visit(n);
		walk(n.children, visit);
	}
}
