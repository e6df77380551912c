/**
 * The one interface every source of objects implements: a cluster (list+watch), files (-f) and the demo.
 * Declared here, next to the store that consumes the events (as client-go declares the Store a Reflector writes
 * into), so sources depend on the state layer and not the other way round.
 * Sources emit raw Kubernetes objects; the store adapts (and so sanitizes) them. No source talks to the UI.
 */
import type {ExitCode} from '../core/exit-codes.js';
import type {KubeObject, ResourceKind} from '../core/kube-object.js';

export type ConnectionState =
	| {readonly status: 'static'; readonly label: string} // files: nothing to connect to
	| {readonly status: 'connecting'}
	/** `limitMs`: how long the plugin may run before planwatch stops it. */
	| {readonly status: 'waiting-credentials'; readonly plugin: string; readonly limitMs?: number}
	| {readonly status: 'live'}
	| {readonly status: 'reconnecting'; readonly attempt: number; readonly lastError: string};

/**
 * `context`: which kubeconfig context the event comes from, set only by a source that watches several (each its own
 * cluster): the store keeps their objects and states apart. Absent: the one context of the run.
 */
export type SourceEvent = SingleSourceEvent & {readonly context?: string};

type SingleSourceEvent =
	/** An object was added or changed. */
	| {readonly type: 'upsert'; readonly resource: ResourceKind; readonly object: KubeObject}
	/** An object was deleted (carries its last known state). */
	| {readonly type: 'delete'; readonly resource: ResourceKind; readonly object: KubeObject}
	/** A (re)list of one resource: objects not in `objects` are gone (within `namespace` when set). */
	| {readonly type: 'replace'; readonly resource: ResourceKind; readonly namespace?: string; readonly objects: readonly KubeObject[]}
	/** Every resource has been listed at least once: the picture is complete. */
	| {readonly type: 'synced'}
	| {readonly type: 'connection'; readonly state: ConnectionState}
	/**
	 * A supporting collection (Events, OperatorVersions, Blueprints) cannot be read (403): the targets are still
	 * watched and drawn without it; `message` says what is missing and why.
	 */
	| {readonly type: 'missing'; readonly resource: ResourceKind; readonly message: string}
	/**
	 * Text of a container's log (a fetch, or a chunk of a follow). `reset`: a new read begins (what came before is
	 * dropped); `error`: it cannot be read (`forbidden`: RBAC refuses pods/log).
	 */
	| {
		readonly type: 'log';
		readonly namespace: string;
		readonly pod: string;
		readonly container: string;
		readonly previous: boolean;
		readonly text: string;
		readonly reset?: boolean;
		readonly error?: string;
		readonly forbidden?: boolean;
	}
	/** A failure planwatch cannot recover from (RBAC, CRD missing, not found…): one line, exit code. */
	| {readonly type: 'fatal'; readonly message: string; readonly exitCode: ExitCode};

export type SourceSink = (event: SourceEvent) => void;

/** A node the views show that wants its pods and logs watched (on screen, or in the open detail pane). */
export type Interest = {
	readonly context?: string;
	readonly kind: 'Instance' | 'ActionSet';
	/** The namespaces its objects and pods are in. */
	readonly namespaces: readonly string[];
};

/** What a source that can follow pods and logs reads: the interest, the logs it should follow, and changes. */
export type InterestFeed = {
	interest(): readonly Interest[];
	wantedLogs(): ReadonlyArray<{
		readonly context?: string;
		readonly namespace: string;
		readonly pod: string;
		readonly container: string;
		readonly previous: boolean;
	}>;
	subscribe(listener: () => void): () => void;
};

export type ObjectSource = {
	/** Shown in the header: context name, `file`, `demo`. */
	readonly label: string;
	/** Namespace shown in the header (`all namespaces` with -A). */
	readonly scope: string;
	/**
	 * A static snapshot (files): nothing will change, the views draw it at one moment — `recordedAt`, the newest time
	 * its objects record (model/as-of.ts), or when it was read if they record none. Absent: a live source.
	 */
	readonly frozen?: {readonly recordedAt?: number};
	start(sink: SourceSink): void;
	stop(): void | Promise<void>;
	/** Watch pods and logs for what `feed` asks (a cluster source; others replay what they recorded). */
	follow?(feed: InterestFeed): void;
	/** Resolves once what the feed asks now has been read once (lists, one read of each log); `--once` waits on it. */
	followed?(): Promise<void>;
};
