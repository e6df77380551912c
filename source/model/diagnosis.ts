/**
 * Why a running, retrying or failed node is stuck or failed: for a KUDO step, the objects the manager applied for
 * it with KUDO's health and the pods behind them; for a Kanister phase, the pod its function ran. Which pod
 * explains it, the last lines of its log, and the next command. Pure: the caller hands in what it watched.
 *
 * Kanister pods: functions that run a pod (KubeTask, …) create it through pkg/kube/pod.go `createPodSpec`, which
 * labels it `createdBy: kanister`; KubeTask adds `kanister.io/JobID` copied from the ActionSet's own label of that
 * name when it has one (pkg/function/kube_task.go, pkg/kube/utils.go AddLabelsToPodOptionsFromContext). There is no
 * owner reference and no label naming the ActionSet or phase (kanisterio/kanister at 534f152), so a pod belongs to
 * a phase when it is such a pod, in a namespace the action concerns, created while the phase ran, and carries the
 * ActionSet's JobID when the ActionSet has one.
 */
import type {KubeObject} from '../core/kube-object.js';
import {isAppliedFor, kudoHealth, selectsPod, type ResourceHealth} from './kudo-applied.js';
import {shownLogLines, type LogTail} from './log-tail.js';
import {nextCommand} from './next-command.js';
import {podFacts, type PodEvent, type PodFacts} from './pod-reason.js';
import type {PlanNode, PlanObject} from './plan-tree.js';
import {isoMs} from './iso-time.js';

export const kanisterCreatedBy = {key: 'createdBy', value: 'kanister'} as const;
export const kanisterJobIdLabel = 'kanister.io/JobID';

/** Which log a diagnosis wants: one container of one pod, current or previous. */
export type LogRef = {readonly namespace: string; readonly pod: string; readonly container: string; readonly previous: boolean};

export function logKey(ref: LogRef): string {
	return `${ref.namespace}/${ref.pod}/${ref.container}${ref.previous ? '/previous' : ''}`;
}

/** A pod seen earlier and now gone (Kanister deletes its pods when the function ends), with when it went. */
export type GonePod = {readonly pod: KubeObject; readonly goneAt: number};

/** What the caller watched, in the namespaces concerned. */
export type WatchedView = {
	/** Deployments, StatefulSets, Jobs KUDO applied. */
	readonly workloads: readonly KubeObject[];
	readonly pods: readonly KubeObject[];
	readonly gonePods: readonly GonePod[];
	readonly events: readonly PodEvent[];
	readonly logs: ReadonlyMap<string, LogTail>;
	/** Pods or their logs may not be read (403): the one note a tree shows. */
	readonly note?: string;
};

export type Diagnosis = {
	readonly resources: readonly ResourceHealth[];
	readonly pods: readonly PodFacts[];
	/** The pod whose state explains the node, and why. */
	readonly cause?: string;
	/** The same in a few words, for a row with little room: `ImagePullBackOff · pod web-0`. */
	readonly brief?: string;
	readonly log?: LogRef;
	readonly logTail?: readonly string[];
	/** A restarted container (`log` is its previous instance's): the current one's log, its lines once it has some. */
	readonly currentLog?: LogRef;
	readonly currentTail?: readonly string[];
	/** The log's pod is gone (the controller deleted it): its kept lines are shown, its log is not asked for again. */
	readonly logGone?: boolean;
	readonly next?: string;
	readonly note?: string;
};

/** Nodes planwatch explains: KUDO steps and Kanister phases that are running, retrying or failed. */
export function isDiagnosable(object: PlanObject, node: PlanNode): boolean {
	const kind = object.kind === 'Instance' ? 'step' : node.kind === 'phase' || node.kind === 'deferPhase' ? node.kind : undefined;
	return node.kind === kind && (node.state === 'running' || node.state === 'retrying' || node.state === 'failed');
}

/** The namespaces a Kanister action concerns: the ActionSet's and its subject's (`statefulset ns/name`, `namespace ns`). */
export function kanisterNamespaces(object: PlanObject, action: PlanNode | undefined): string[] {
	const spaces = [object.namespace];
	const [kind = '', target = ''] = (action?.detail ?? '').split(' ');
	const subject = kind.toLowerCase() === 'namespace' ? target : target.includes('/') ? target.split('/')[0]! : '';
	if (subject && !spaces.includes(subject)) {
		spaces.push(subject);
	}

	return spaces;
}

function explaining(pods: readonly PodFacts[]): PodFacts | undefined {
	// Trouble first; among equals the one that restarted most, then by name (a stable choice).
	return [...pods].filter(p => p.trouble).sort((a, b) => b.restarts - a.restarts || a.name.localeCompare(b.name))[0];
}

type Logs = Pick<Diagnosis, 'log' | 'logTail' | 'currentLog' | 'currentTail'>;

function logOf(pod: PodFacts | undefined, view: WatchedView): Logs {
	if (!pod?.container || !pod.hasLog || pod.reason === 'unschedulable' || pod.reason === 'image-pull') {
		return {};
	}

	const log: LogRef = {namespace: pod.namespace, pod: pod.name, container: pod.container, previous: pod.previous};
	const tail = view.logs.get(logKey(log));
	const logs: Logs = tail ? {log, logTail: shownLogLines(tail)} : {log};
	if (!pod.previous) {
		return logs;
	}

	// Crash-looping: what the instance that crashed said, and what the one running now says (often nothing yet).
	const currentLog: LogRef = {...log, previous: false};
	const current = view.logs.get(logKey(currentLog));
	const currentTail = current ? shownLogLines(current) : [];
	return {...logs, currentLog, ...(currentTail.length > 0 ? {currentTail} : {})};
}

/** A KUDO step: `path` are the plan, phase and step names as the tree shows them. */
export function diagnoseKudoStep(
	object: PlanObject,
	path: {readonly plan: string; readonly phase: string; readonly step: string},
	node: PlanNode,
	view: WatchedView,
): Diagnosis {
	const target = {instance: object.name, ...path};
	const applied = view.workloads.filter(w => w.metadata?.namespace === object.namespace && isAppliedFor(w, target));
	const resources = applied.map(w => kudoHealth(w));
	const podObjects = view.pods.filter(p => applied.some(w => selectsPod(w, p)));
	const pods = podObjects.map(p => podFacts(p, view.events));
	const pod = explaining(pods);
	const unhealthy = resources.find(r => !r.healthy);
	const failed = node.state === 'failed';
	// A next command only under a node that failed or is known stuck (a pod in trouble, an unhealthy object).
	const next = pod
		? nextCommand({kind: 'pod', pod})
		: unhealthy
			? nextCommand({kind: 'resource', resource: unhealthy})
			: failed
				? nextCommand({kind: 'kudo-step', namespace: object.namespace, instance: object.name, plan: path.plan, failed})
				: undefined;
	const cause = pod
		? `pod ${pod.name}: ${pod.words}`
		: unhealthy ? `${unhealthy.kind.toLowerCase()} ${unhealthy.name}: ${unhealthy.words}` : undefined;
	// An object's health words are clauses (`0/1 ready, 0 of 1 updated replicas available`): the first says it.
	const brief = pod
		? `${pod.short} · pod ${pod.name}`
		: unhealthy ? `${unhealthy.words.split(', ')[0]!} · ${unhealthy.kind.toLowerCase()} ${unhealthy.name}` : undefined;
	return {
		resources,
		pods,
		...(cause ? {cause} : {}),
		...(brief ? {brief} : {}),
		...logOf(pod, view),
		...(next ? {next} : {}),
		...(view.note ? {note: view.note} : {}),
	};
}

/** The pods of one Kanister phase: see the module comment. `startedAt`/`endedAt` in ms. */
export function kanisterPhasePods(
	jobId: string | undefined,
	namespaces: readonly string[],
	run: {readonly startedAt?: number; readonly endedAt?: number},
	pods: ReadonlyArray<{readonly pod: KubeObject; readonly goneAt?: number}>,
): KubeObject[] {
	return pods
		.filter(({pod, goneAt}) => {
			const labels = pod.metadata?.labels ?? {};
			if (labels[kanisterCreatedBy.key] !== kanisterCreatedBy.value || !namespaces.includes(pod.metadata?.namespace ?? '')) {
				return false;
			}

			if (jobId !== undefined && labels[kanisterJobIdLabel] !== jobId) {
				return false;
			}

			const created = isoMs(pod.metadata?.creationTimestamp);
			// Timestamps have one-second resolution: a pod created in the second the phase started belongs to it.
			const startsBefore = run.startedAt === undefined || created === undefined || created >= Math.floor(run.startedAt / 1000) * 1000;
			const endsAfter = run.endedAt === undefined || created === undefined || created <= run.endedAt;
			const goneDuring = goneAt === undefined || run.startedAt === undefined || goneAt >= run.startedAt;
			return startsBefore && endsAfter && goneDuring;
		})
		.map(({pod}) => pod);
}

/** A Kanister phase: its pod (live or gone), the last log lines planwatch saw, the next command. */
export function diagnoseKanisterPhase(
	object: PlanObject,
	jobId: string | undefined,
	action: PlanNode | undefined,
	node: PlanNode,
	run: {readonly startedAt?: number; readonly endedAt?: number},
	view: WatchedView,
): Diagnosis {
	const namespaces = kanisterNamespaces(object, action);
	const live = view.pods.map(pod => ({pod}));
	const matched = kanisterPhasePods(jobId, namespaces, run, [...live, ...view.gonePods]);
	const pods = matched.map(p => podFacts(p, view.events));
	const gone = new Set(view.gonePods.map(g => g.pod.metadata?.uid ?? g.pod.metadata?.name));
	const latest = [...pods].sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''))[0];
	const pod = explaining(pods) ?? latest;
	const isGone = pod !== undefined && gone.has(pod.uid ?? pod.name);
	const failed = node.state === 'failed';
	const logs = logOf(pod, view);
	const next = pod?.trouble && !isGone
		? nextCommand({kind: 'pod', pod})
		: failed
			? nextCommand({
				kind: 'kanister-action',
				namespace: object.namespace,
				actionSet: object.name,
				action: action?.name ?? '',
				failed,
			})
			: undefined;
	const cause = pod ? `pod ${pod.name}${isGone ? ' (gone)' : ''}: ${pod.words}` : undefined;
	const brief = pod ? `${pod.short} · pod ${pod.name}${isGone ? ' (gone)' : ''}` : undefined;
	return {
		resources: [],
		pods,
		...(cause ? {cause} : {}),
		...(brief ? {brief} : {}),
		...logs,
		...(logs.log && isGone ? {logGone: true} : {}),
		...(next ? {next} : {}),
		...(view.note ? {note: view.note} : {}),
	};
}
