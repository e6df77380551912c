/** What the store hands its readers: the snapshot and the records in it. Types only, and two constants. */
import type {ConnectionState} from './object-source.js';
import type {ExitCode} from '../core/exit-codes.js';
import type {ResourceKind} from '../core/kube-object.js';
import type {PlanEvent, PlanObject} from '../model/plan-tree.js';
import type {StoreChanges} from './change-log.js';
import type {Workloads} from './workloads.js';

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
	/**
	 * What changed between two versions, for a reader that skips what it does not show (the TUI: an object off
	 * screen). Absent (a test's hand-made snapshot): a reader assumes everything changed.
	 */
	readonly changes?: StoreChanges;
	/** Pods, applied objects and logs watched for the nodes on screen: why a node is stuck (`diagnose`). */
	readonly workloads?: Workloads;
};
