/**
 * `-o json`: a stable document for scripts. Keys marked "always" are present on every object/node; the others
 * are present only when the object carries the fact. New keys may be added; none is renamed or removed.
 *
 *   {"objects": [{
 *     "context":   kubeconfig context            only when several are watched (--context a --context b)
 *     "kind":      "Instance" | "ActionSet"                              always
 *     "namespace", "name": string                                        always
 *     "outcome":   "running" | "succeeded" | "failed" | "unknown"         always
 *     "summary":   string, one line                                      always
 *     "state":     normalized state of the object                        always
 *     "status":    raw status of the object (active plan / status.state) always
 *     "version":   OperatorVersion (KUDO) / blueprint (Kanister)
 *     "active":    active plan / current action
 *     "percent":   number;  "steps": {"done", "total"};  "error": string;  "updatedAt": ISO time
 *     "events":    [{"type", "reason", "message", "time"?, "count"}]    when any are known
 *     "tree":      [node]                                                always
 *   }],
 *   "missing": [{"resource": "Event", "reason": string}]   when RBAC hides Events, OperatorVersions or Blueprints (or
 *              pods: one entry for pods and what KUDO applied, read only to explain a failed or running node)
 *   "limited": [{"resource": "Instance", "reason": string}] when more objects of a kind arrived than planwatch holds
 *   "asOf":    ISO time, first, for a static snapshot (`-f FILE`): the newest time its objects record, the moment
 *              the picture is of (durations and etas of running nodes are counted to it); with
 *              "asOfRecorded": false when they record none and it is when planwatch read them
 *   }
 *
 *   node = {
 *     "kind":     "plan" | "phase" | "step" | "action" | "deferPhase"    always
 *     "name":     string                                                 always
 *     "status":   raw status word (IN_PROGRESS, complete, NOT ACTIVE…)   always
 *     "state":    pending | running | retrying | succeeded | failed | inactive | stopped | unknown   always
 *     "children": [node]                                                 always
 *     "statusReason": why state is not what status alone says ("running per progress", "stopped", "missing")
 *     "strategy", "message", "note", "detail": string;  "percent": number;
 *     "updatedAt", "startedAt", "endedAt": ISO times the object (or its events) carry
 *     "eta":      while it runs and past runs of it are in the history:
 *                 {"state": "left" | "overdue", "ms": number, "text": "~2m left", "runs": number}
 *     "output":   Kanister phase / deferPhase: the map it output (status…phases[].output), as the controller wrote it
 *     "outputTruncated": true            when part of "output" was left out (see below)
 *     "artifacts": Kanister action: status.actions[].artifacts, {name: {"keyValue": {k: v}, "kopiaSnapshot": s}}:
 *                 what `kanctl create actionset --action … --from <this ActionSet>` passes on (once it is complete)
 *     "artifactsRendered": boolean       with "artifacts": false while they are still the Blueprint's `{{ … }}`
 *                 templates (the controller renders them once every phase and the deferPhase succeeded)
 *     "artifactsTruncated": true         when part of "artifacts" was left out
 *     A running, retrying or failed KUDO step or Kanister phase, once planwatch has watched its pods (docs/stuck.md):
 *     "cause":     string: the pod (or object) that explains it, and why
 *     "resources": [{"kind", "namespace", "name", "healthy": bool, "terminal": bool, "health": string}]   KUDO: what
 *                  the manager applied for the step, with KUDO's health
 *     "pods":      [{"namespace", "name", "phase", "ready": "0/1", "restarts": number, "reason", "words", "container"?}]
 *                  reason: image-pull | crash-loop | oom-killed | unschedulable | config-error | exited | failed |
 *                  not-ready | waiting | pending | succeeded | ready | terminating | unknown
 *     "logTail":   {"pod", "container", "previous": bool, "lines": [string]}   the last lines read (bounded, sanitized);
 *                  with "currentLines": [string] when "previous" (a restarted container) and the running one has lines
 *     "next":      string: the command to run next, shell-quoted (planwatch never runs it)
 *     "watchNote": string: pods or their logs may not be read (RBAC)
 *   }
 *
 *   "output" and "artifacts" keep any JSON shape (maps, arrays, numbers, null), every string sanitized to one line.
 *   They are bounded (model/kanister-values.ts): 100 values in all, 4 levels (a deeper map or array is the string
 *   "…"), 1000 characters a string and 253 a key (a cut string ends in "…"); "…Truncated" says something was cut.
 *
 *   The object's "eta" (same shape) is its running plan's (KUDO) or action's (Kanister).
 *
 * Live mode (`-o json` while watching) writes NDJSON instead: one line per snapshot or transition,
 * `{"type":"snapshot","time":ISO,"objects":[…]}` (a transition's `"durationAtLeast": true` when its durationMs is only
 * a lower bound: the node was already running when first seen; `"state"` when the status word alone does not say it:
 * a change of state under the same word, `"from"`/`"to"` then with the reason, `pending` → `pending (running per
 * progress)`; plus `"missing":[{"resource","reason"}]` when RBAC hides Events, OperatorVersions or Blueprints, and
 * `"limited"` likewise past the cap of objects), `{"type":"transition","time":ISO,…}` and at the end
 * `{"type":"result","time":ISO,"exitCode":n,"message":…}`.
 */
import {formatEta, nodeEta, planNode, type Eta, type Expectation} from '../model/eta.js';
import {objectKey, type PlanEvent, type PlanNode, type PlanObject} from '../model/plan-tree.js';
import type {NodeTiming, StoreSnapshot, Transition} from '../state/store.js';
import type {KanisterValues} from '../model/kanister-values.js';
import type {AsOf} from '../model/as-of.js';
import type {Diagnosis} from '../model/diagnosis.js';
import {diagnoseIn} from '../state/workloads.js';

export type JsonEta = {state: Eta['kind']; ms: number; text: string; runs: number};

/** What `eta` keys need: past runs (the history) and when each node started. */
export type EtaContext = {
	readonly expectations: (object: PlanObject) => ReadonlyMap<string, Expectation>;
	readonly timings: StoreSnapshot['timings'];
	readonly now: number;
};

export type JsonNode = {
	kind: PlanNode['kind'];
	name: string;
	status: string;
	state: PlanNode['state'];
	children: JsonNode[];
	statusReason?: string;
	strategy?: string;
	message?: string;
	note?: string;
	detail?: string;
	percent?: number;
	updatedAt?: string;
	startedAt?: string;
	endedAt?: string;
	eta?: JsonEta;
	output?: KanisterValues['values'];
	outputTruncated?: true;
	artifacts?: KanisterValues['values'];
	artifactsRendered?: boolean;
	artifactsTruncated?: true;
	/** A running, retrying or failed step/phase: why (see docs/stuck.md). */
	cause?: string;
	/** KUDO: the objects the manager applied for this step, with KUDO's health. */
	resources?: Array<{kind: string; namespace: string; name: string; healthy: boolean; terminal: boolean; health: string}>;
	/** The pods behind them (Kanister: the pod the phase's function ran, kept after it is gone). */
	pods?: Array<{
		namespace: string;
		name: string;
		phase: string;
		ready: string;
		restarts: number;
		reason: string;
		words: string;
		container?: string;
	}>;
	/** The last lines planwatch read of the log that explains it (`previous`: the container before its restart). */
	logTail?: {pod: string; container: string; previous: boolean; lines: string[]; currentLines?: string[]};
	/** The command to run next (shell-quoted); planwatch never runs it. */
	next?: string;
	/** Pods or their logs may not be read (RBAC). */
	watchNote?: string;
};

export type JsonEvent = {type: string; reason: string; message: string; time?: string; count: number};

export type JsonObject = {
	/** Only when planwatch watches several kubeconfig contexts. */
	context?: string;
	kind: PlanObject['kind'];
	namespace: string;
	name: string;
	outcome: PlanObject['outcome'];
	summary: string;
	state: PlanObject['state'];
	status: string;
	version?: string;
	active?: string;
	percent?: number;
	steps?: {done: number; total: number};
	error?: string;
	updatedAt?: string;
	events?: JsonEvent[];
	eta?: JsonEta;
	tree: JsonNode[];
};

export type JsonDocument = {objects: JsonObject[]};

type Snapshot = Pick<StoreSnapshot, 'objects' | 'events'> & Partial<Pick<StoreSnapshot, 'workloads' | 'timings'>>;

type Explain = (node: PlanNode) => Diagnosis | undefined;

/** Why each node of `object` is stuck or failed, from what the snapshot's workloads watched (none without them). */
export function explainerOf(snapshot: Snapshot, object: PlanObject): Explain | undefined {
	const {workloads, timings} = snapshot;
	return workloads && timings ? node => diagnoseIn({workloads, timings}, object, node) : undefined;
}

export function toJsonDocument(snapshot: Snapshot, eta?: EtaContext): JsonDocument {
	return {objects: snapshot.objects.map(o => toJsonObject(o, snapshot.events.get(objectKey(o)) ?? [], eta, explainerOf(snapshot, o)))};
}

/** The `-o json` document, pretty-printed, ending in a newline. */
/** What a picture may say it lacks (the `missing` and `limited` keys). */
type Lacking = Partial<Pick<StoreSnapshot, 'missing' | 'limited'>>;

export function renderJson(snapshot: Snapshot & Lacking, eta?: EtaContext, asOf?: AsOf): string {
	return [...renderJsonChunks(snapshot, eta, asOf)].join('');
}

/**
 * The same text, one object at a time: 10 000 objects never exist as one document copy plus one string of tens of
 * megabytes (what JSON.stringify of the whole document needs), only as the chunks a writer takes one by one.
 */
export function* renderJsonChunks(snapshot: Snapshot & Lacking, eta?: EtaContext, asOf?: AsOf): Generator<string> {
	const {objects} = snapshot;
	const extra = extraKeys(snapshot);
	// A static snapshot: the moment it is of, first, so a reader knows before the objects that nothing here is live.
	const head = asOf ? {asOf: new Date(asOf.at).toISOString().replace('.000Z', 'Z'), ...(asOf.recorded ? {} : {asOfRecorded: false})} : {};
	if (objects.length === 0) {
		yield JSON.stringify({...head, objects: [], ...extra}, undefined, 2) + '\n';
		return;
	}

	const headText = Object.entries(head).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)},\n`).join('');
	yield `{\n${headText}  "objects": [\n`;
	for (const [i, o] of objects.entries()) {
		// JSON.stringify escapes newlines inside strings: every raw newline is indentation.
		const object = toJsonObject(o, snapshot.events.get(objectKey(o)) ?? [], eta, explainerOf(snapshot, o));
		const text = JSON.stringify(object, undefined, 2).replaceAll('\n', '\n    ');
		yield `    ${text}${i < objects.length - 1 ? ',' : ''}\n`;
	}

	const tail = Object.entries(extra)
		.map(([key, value]) => `,\n  "${key}": ${JSON.stringify(value, undefined, 2).replaceAll('\n', '\n  ')}`)
		.join('');
	yield `  ]${tail}\n}\n`;
}

type Omitted = Array<{resource: string; reason: string}>;

/**
 * What the picture lacks: `missing`, the supporting collections planwatch may not read (403); `limited`, the kinds
 * past the store's cap of objects (state/object-cap.ts maxObjectsPerKind). Each key only when it has entries.
 */
function extraKeys(snapshot: Lacking): {missing?: Omitted; limited?: Omitted} {
	const list = (entries: ReadonlyArray<{readonly resource: string; readonly message: string}> | undefined): Omitted | undefined =>
		entries && entries.length > 0 ? entries.map(m => ({resource: m.resource, reason: m.message})) : undefined;
	const missing = list(snapshot.missing);
	const limited = list(snapshot.limited);
	return {...(missing ? {missing} : {}), ...(limited ? {limited} : {})};
}

type NodeEta = (node: PlanNode) => JsonEta | undefined;

function etaOfNodes(object: PlanObject, eta: EtaContext | undefined): NodeEta | undefined {
	if (!eta) {
		return undefined;
	}

	const expectations = eta.expectations(object);
	if (expectations.size === 0) {
		return undefined;
	}

	const timings: ReadonlyMap<string, NodeTiming> | undefined = eta.timings.get(objectKey(object));
	return node => {
		const e = nodeEta(node, expectations, timings?.get(node.id)?.startedAt, eta.now);
		return e ? {state: e.kind, ms: Math.round(e.ms), text: formatEta(e), runs: expectations.get(node.id)!.runs} : undefined;
	};
}

export function toJsonObject(object: PlanObject, events: readonly PlanEvent[], eta?: EtaContext, explain?: Explain): JsonObject {
	const nodeEtaOf = etaOfNodes(object, eta);
	const plan = nodeEtaOf ? planNode(object) : undefined;
	return {
		...(object.context === undefined ? {} : {context: object.context}),
		kind: object.kind,
		namespace: object.namespace,
		name: object.name,
		outcome: object.outcome,
		summary: object.summary,
		state: object.state,
		status: object.status,
		...optional({
			version: object.version,
			active: object.active,
			percent: object.percent,
			steps: object.steps ? {done: object.steps.done, total: object.steps.total} : undefined,
			error: object.error,
			updatedAt: object.updatedAt,
			events:
				events.length > 0
					? events.map(e => ({type: e.type, reason: e.reason, message: e.message, ...optional({time: e.time}), count: e.count}))
					: undefined,
			eta: plan ? nodeEtaOf!(plan) : undefined,
		}),
		tree: object.tree.map(n => toJsonNode(n, nodeEtaOf, explain)),
	};
}

export function toJsonNode(node: PlanNode, etaOf?: NodeEta, explain?: Explain): JsonNode {
	const why = explain?.(node);
	return {
		kind: node.kind,
		name: node.name,
		status: node.status,
		state: node.state,
		...optional({
			statusReason: node.statusReason,
			strategy: node.strategy,
			message: node.message,
			note: node.note,
			detail: node.detail,
			percent: node.percent,
			updatedAt: node.updatedAt,
			startedAt: node.startedAt,
			endedAt: node.endedAt,
			eta: etaOf?.(node),
			output: node.output?.values,
			outputTruncated: node.output?.truncated,
			artifacts: node.artifacts?.values,
			artifactsRendered: node.artifacts?.rendered,
			artifactsTruncated: node.artifacts?.truncated,
			...(why ? jsonWhy(why) : {}),
		}),
		children: node.children.map(n => toJsonNode(n, etaOf, explain)),
	};
}

/** NDJSON: the whole picture at `at` (clock ms). */
export function snapshotLine(snapshot: Snapshot & Lacking, at: number, eta?: Omit<EtaContext, 'now'>): string {
	const document = toJsonDocument(snapshot, eta && {...eta, now: at});
	return JSON.stringify({type: 'snapshot', time: new Date(at).toISOString(), ...document, ...extraKeys(snapshot)}) + '\n';
}

/** NDJSON: one observed status change; `path` runs from the top-level node down (empty: the object itself). */
export function transitionLine(t: Transition): string {
	return (
		JSON.stringify({
			type: 'transition',
			time: new Date(t.at).toISOString(),
			...(t.context === undefined ? {} : {context: t.context}),
			kind: t.kind,
			namespace: t.namespace,
			name: t.name,
			path: t.path,
			from: t.from,
			to: t.to,
			...optional({durationMs: t.durationMs}),
			// The node was already running when first seen: durationMs is a lower bound.
			...(t.atLeast ? {durationAtLeast: true} : {}),
			// The same raw word, another state (a deferPhase running while it says pending): the state after.
			...(t.state === undefined ? {} : {state: t.state}),
		}) + '\n'
	);
}

/** NDJSON: how the run ended (the process exits with `exitCode`). */
export function resultLine(result: {readonly exitCode: number; readonly message: string}, at: number): string {
	return JSON.stringify({type: 'result', time: new Date(at).toISOString(), exitCode: result.exitCode, message: result.message}) + '\n';
}

/** The diagnosis keys of a node: empty lists are left out. */
function jsonWhy(d: Diagnosis): Pick<JsonNode, 'cause' | 'resources' | 'pods' | 'logTail' | 'next' | 'watchNote'> {
	return {
		cause: d.cause,
		resources: d.resources.length > 0
			? d.resources.map(r => ({
				kind: r.kind,
				namespace: r.namespace,
				name: r.name,
				healthy: r.healthy,
				terminal: r.terminal,
				health: r.words,
			}))
			: undefined,
		pods: d.pods.length > 0
			? d.pods.map(p => ({
				namespace: p.namespace,
				name: p.name,
				phase: p.phase,
				ready: p.ready,
				restarts: p.restarts,
				reason: p.reason,
				words: p.words,
				...optional({container: p.container}),
			}))
			: undefined,
		logTail: d.log && d.logTail
			? {
				pod: d.log.pod,
				container: d.log.container,
				previous: d.log.previous,
				lines: [...d.logTail],
				...(d.currentTail ? {currentLines: [...d.currentTail]} : {}),
			}
			: undefined,
		next: d.next,
		watchNote: d.note,
	};
}

/** Drops undefined values, so optional keys are absent rather than null. */
function optional<T extends Record<string, unknown>>(values: T): Partial<T> {
	return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}
