/**
 * What the tree on screen asks planwatch to watch: the namespaces of its running, retrying and failed steps and
 * phases that are on screen (pods, applied objects), and the logs their diagnoses point at. Pure; the TUI (and the stream printers) hand
 * it to the store's workloads, which a cluster source follows (sources/workload-follower.ts).
 */
import {isDiagnosable, kanisterNamespaces, type Diagnosis, type LogRef} from '../model/diagnosis.js';
import type {PlanNode, PlanObject} from '../model/plan-tree.js';
import type {Interest} from './object-source.js';

export type WatchWants = {
	readonly interest: readonly Interest[];
	readonly logs: ReadonlyArray<LogRef & {readonly context?: string}>;
};

export const noWants: WatchWants = {interest: [], logs: []};

/** `nodes`: the nodes on screen (and the selected one); `diagnose` explains one of them. */
export function watchWants(
	object: PlanObject | undefined,
	nodes: readonly PlanNode[],
	diagnose: (node: PlanNode) => Diagnosis | undefined,
): WatchWants {
	if (!object) {
		return noWants;
	}

	const context = object.context === undefined ? {} : {context: object.context};
	const namespaces = new Set<string>();
	const logs: Array<LogRef & {readonly context?: string}> = [];
	for (const node of nodes) {
		if (!isDiagnosable(object, node)) {
			continue;
		}

		if (object.kind === 'Instance') {
			namespaces.add(object.namespace);
		} else {
			const action = object.tree.find(a => a.children.includes(node));
			for (const ns of kanisterNamespaces(object, action)) {
				namespaces.add(ns);
			}
		}

		const d = diagnose(node);
		for (const log of d?.logGone ? [] : [d?.log, d?.currentLog]) {
			if (log) {
				logs.push({...log, ...context});
			}
		}
	}

	if (namespaces.size === 0) {
		return noWants;
	}

	return {interest: [{...context, kind: object.kind, namespaces: [...namespaces].sort()}], logs};
}

/** Nodes of several objects (the list's rows on screen, say): what to watch for them, object by object. */
export function shownWatchWants(
	rows: ReadonlyArray<{readonly object: PlanObject; readonly node?: PlanNode}>,
	diagnose: (object: PlanObject, node: PlanNode) => Diagnosis | undefined,
): WatchWants {
	const byObject = new Map<PlanObject, PlanNode[]>();
	for (const {object, node} of rows) {
		if (node) {
			const nodes = byObject.get(object) ?? [];
			nodes.push(node);
			byObject.set(object, nodes);
		}
	}

	const interest: Interest[] = [];
	const logs: Array<LogRef & {readonly context?: string}> = [];
	for (const [object, nodes] of byObject) {
		const wants = watchWants(object, nodes, node => diagnose(object, node));
		interest.push(...wants.interest);
		logs.push(...wants.logs);
	}

	return interest.length === 0 ? noWants : {interest, logs};
}

/** Every node of `objects` (a stream prints them all): what to watch for them. */
export function allWatchWants(
	objects: readonly PlanObject[],
	diagnose: (object: PlanObject, node: PlanNode) => Diagnosis | undefined,
): WatchWants {
	const rows: Row[] = [];
	for (const object of objects) {
		pushNodes(rows, object, object.tree);
	}

	return shownWatchWants(rows, diagnose);
}

/** Every node of one object: what to watch for it (noWants when nothing). */
export function objectWatchWants(object: PlanObject, diagnose: (object: PlanObject, node: PlanNode) => Diagnosis | undefined): WatchWants {
	const rows: Row[] = [];
	pushNodes(rows, object, object.tree);
	return shownWatchWants(rows, diagnose);
}

type Row = {readonly object: PlanObject; readonly node: PlanNode};

function pushNodes(rows: Row[], object: PlanObject, nodes: readonly PlanNode[]): void {
	for (const node of nodes) {
		rows.push({object, node});
		pushNodes(rows, object, node.children);
	}
}
