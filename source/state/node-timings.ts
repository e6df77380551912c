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
 */
export function stampTimings(
	previous: PlanObject | undefined,
	next: PlanObject,
	before: ReadonlyMap<string, NodeTiming> | undefined,
	now: number,
	record: (transition: SeenTransition) => void,
): Map<string, NodeTiming> {
	const timings = new Map(before ?? []);
	const nodes = new Map<string, PlanNode>();
	if (previous) {
		walk(previous.tree, [], node => nodes.set(node.id, node));
	}

	const objectTiming = timings.get(objectTimingId);
	if (previous && previous.status !== next.status) {
		record({path: [], from: previous.status, to: next.status, timing: objectTiming});
	}

	walk(next.tree, [], (node, path) => {
		const old = nodes.get(node.id);
		const t = timings.get(node.id);
		const timing = nodeTiming(node, old, t, now);
		if (timing) {
			timings.set(node.id, timing);
		} else {
			timings.delete(node.id);
		}

		if (old && old.status !== node.status) {
			record({path, from: old.status, to: node.status, timing: t});
		} else if (old && old.state !== node.state) {
			// The same raw word, another state (the controller never writes a deferPhase `running`): the log
			// must still say it started, in the words the views use.
			record({path, from: statusText(old), to: statusText(node), timing: t, state: node.state});
		}
	});
	earliestFromChildren(next.tree, timings);
	stampObject(timings, objectTiming, previous, next, now);
	return timings;
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
