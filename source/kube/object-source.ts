/**
 * The one interface every source of objects implements: a cluster (list+watch), files (-f) and the demo.
 * Sources emit raw Kubernetes objects; the store adapts (and so sanitizes) them. No source talks to the UI.
 */

/** A raw Kubernetes object as decoded from JSON/YAML. Untrusted. */
export type KubeObject = {
	apiVersion?: string;
	kind?: string;
	metadata?: {
		name?: string;
		namespace?: string;
		uid?: string;
		resourceVersion?: string;
		creationTimestamp?: string;
		labels?: Record<string, string>;
		[key: string]: unknown;
	};
	[key: string]: unknown;
};

/** The resources planwatch reads. Never Secrets, never writes. */
export type ResourceKind = 'Instance' | 'OperatorVersion' | 'ActionSet' | 'Blueprint' | 'Event';

export type ConnectionState =
	| {readonly status: 'static'; readonly label: string} // files: nothing to connect to
	| {readonly status: 'connecting'}
	/** `limitMs`: how long the plugin may run before planwatch stops it. */
	| {readonly status: 'waiting-credentials'; readonly plugin: string; readonly limitMs?: number}
	| {readonly status: 'live'}
	| {readonly status: 'reconnecting'; readonly attempt: number; readonly lastError: string};

export type SourceEvent =
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
	/** A failure planwatch cannot recover from (RBAC, CRD missing, not found…): one line, exit code. */
	| {readonly type: 'fatal'; readonly message: string; readonly exitCode: number};

export type SourceSink = (event: SourceEvent) => void;

export type ObjectSource = {
	/** Shown in the header: context name, `file`, `demo`. */
	readonly label: string;
	/** Namespace shown in the header (`all namespaces` with -A). */
	readonly scope: string;
	start(sink: SourceSink): void;
	stop(): void | Promise<void>;
};

/** Which resource a raw object is, by apiVersion group and kind; undefined for kinds planwatch ignores. */
export function resourceOf(object: KubeObject): ResourceKind | undefined {
	const group = (object.apiVersion ?? '').split('/')[0];
	switch (object.kind) {
		case 'Instance': {
			return group === 'kudo.dev' ? 'Instance' : undefined;
		}

		case 'OperatorVersion': {
			return group === 'kudo.dev' ? 'OperatorVersion' : undefined;
		}

		case 'ActionSet': {
			return group === 'cr.kanister.io' ? 'ActionSet' : undefined;
		}

		case 'Blueprint': {
			return group === 'cr.kanister.io' ? 'Blueprint' : undefined;
		}

		case 'Event': {
			return object.apiVersion === 'v1' || object.apiVersion === 'events.k8s.io/v1' ? 'Event' : undefined;
		}

		default: {
			return undefined;
		}
	}
}
