/**
 * Why a pod is not doing its job, in words: the one reason that matters of a raw Pod (image pull, crash loop with
 * restarts, OOMKilled, unschedulable with the scheduler's message, failing readiness probe, exit code), and which
 * container's log explains it (`previous` for a container that restarted). Pure; every string sanitized here.
 */
import type {KubeObject} from '../core/kube-object.js';
import {maxMessageLength, maxNameLength, sanitizeLine} from './sanitize.js';

export type PodReason =
	| 'terminating'
	| 'unschedulable'
	| 'image-pull'
	| 'crash-loop'
	| 'oom-killed'
	| 'config-error'
	| 'exited'
	| 'failed'
	| 'not-ready'
	| 'waiting'
	| 'pending'
	| 'succeeded'
	| 'ready'
	| 'unknown';

export type PodFacts = {
	readonly namespace: string;
	readonly name: string;
	readonly uid?: string;
	/** status.phase as written (`Pending`, `Running`…), '' when none. */
	readonly phase: string;
	/** `1/2`: ready containers of all containers. */
	readonly ready: string;
	readonly restarts: number;
	readonly reason: PodReason;
	/** One line a person reads: `crash-looping: 7 restarts, last exit code 1 (Error)`. */
	readonly words: string;
	/** The reason in a word or two, for a row with little room: `CrashLoopBackOff`, `exit code 2`, `Evicted`. */
	readonly short: string;
	/** The container the reason is about (where its log is). */
	readonly container?: string;
	/** Its log worth reading is the previous instance's (the container restarted after it ended). */
	readonly previous: boolean;
	/**
	 * The kubelet has that log: the container has started (running or terminated), or for `previous` an earlier
	 * instance ended. Before that a log read only gets the kubelet's `… is waiting to start` (a KubeTask pod asked
	 * for while Pending never shows its lines), so none is asked for.
	 */
	readonly hasLog: boolean;
	/** The reason is trouble: this pod explains why its step or phase is stuck or failed. */
	readonly trouble: boolean;
	readonly createdAt?: string;
	readonly labels: Readonly<Record<string, string>>;
	readonly deleting: boolean;
};

/** A warning Event about a pod (FailedScheduling, Unhealthy, BackOff…), already sanitized. */
export type PodEvent = {
	readonly name?: string;
	readonly pod: string;
	readonly reason: string;
	readonly message: string;
	readonly time?: string;
};

type Raw = Record<string, unknown>;

function record(value: unknown): Raw {
	return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Raw) : {};
}

function list(value: unknown): Raw[] {
	return Array.isArray(value) ? value.map(v => record(v)) : [];
}

function count(value: unknown): number {
	return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : 0;
}

const text = (v: unknown): string => sanitizeLine(v, maxMessageLength);
const name = (v: unknown): string => sanitizeLine(v, maxNameLength);

function plural(n: number, word: string): string {
	return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function withMessage(words: string, message: string): string {
	return message ? `${words}: ${message}` : words;
}

function exitWords(terminated: Raw): string {
	const code = typeof terminated['exitCode'] === 'number' ? terminated['exitCode'] : undefined;
	const reason = text(terminated['reason']);
	const codeWords = code === undefined ? 'exited' : `exit code ${code}`;
	return reason ? `${codeWords} (${reason})` : codeWords;
}

/** The newest warning Event about this pod with one of `reasons`, if any. */
function latestEvent(events: readonly PodEvent[], pod: string, reasons: readonly string[]): PodEvent | undefined {
	let latest: PodEvent | undefined;
	for (const e of events) {
		if (e.pod === pod && reasons.includes(e.reason) && (latest === undefined || (e.time ?? '') >= (latest.time ?? ''))) {
			latest = e;
		}
	}

	return latest;
}

const imagePullReasons: ReadonlySet<string> = new Set(['ImagePullBackOff', 'ErrImagePull', 'InvalidImageName', 'ErrImageNeverPull']);

type ContainerView = {readonly name: string; readonly status: Raw; readonly init: boolean};

/**
 * The reason of one container, or undefined when it is fine. Order of the checks: what keeps it from running at
 * all (image, config), then what made it die (OOM, crash loop), then what it ended with.
 */
function containerReason(c: ContainerView): {reason: PodReason; words: string; short: string; previous: boolean} | undefined {
	const state = record(c.status['state']);
	const last = record(c.status['lastState']);
	const restarts = count(c.status['restartCount']);
	const waiting = record(state['waiting']);
	const terminated = record(state['terminated']);
	const lastTerminated = record(last['terminated']);
	const waitingReason = text(waiting['reason']);
	const waitingMessage = text(waiting['message']);
	const where = c.init ? `init container ${c.name}` : `container ${c.name}`;
	if (imagePullReasons.has(waitingReason)) {
		const words = withMessage(`${waitingReason}: the image of ${where} cannot be pulled`, waitingMessage);
		return {reason: 'image-pull', words, short: waitingReason, previous: false};
	}

	if (
		waitingReason === 'CreateContainerConfigError' ||
		waitingReason === 'CreateContainerError' ||
		waitingReason === 'RunContainerError'
	) {
		const words = withMessage(`${waitingReason} in ${where}`, waitingMessage);
		return {reason: 'config-error', words, short: waitingReason, previous: restarts > 0};
	}

	if (text(lastTerminated['reason']) === 'OOMKilled' || text(terminated['reason']) === 'OOMKilled') {
		const words = `OOMKilled: ${where} ran out of memory, ${plural(restarts, 'restart')}`;
		return {reason: 'oom-killed', words, short: 'OOMKilled', previous: restarts > 0 && !('terminated' in state)};
	}

	if (waitingReason === 'CrashLoopBackOff') {
		const lastExit = Object.keys(lastTerminated).length > 0 ? `, last ${exitWords(lastTerminated)}` : '';
		const words = `CrashLoopBackOff: ${where} keeps crashing, ${plural(restarts, 'restart')}${lastExit}`;
		return {reason: 'crash-loop', words, short: 'CrashLoopBackOff', previous: restarts > 0};
	}

	if (Object.keys(terminated).length > 0 && count(terminated['exitCode']) !== 0) {
		const message = text(terminated['message']);
		const words = withMessage(`${where} failed: ${exitWords(terminated)}`, message);
		const code = typeof terminated['exitCode'] === 'number' ? `exit code ${terminated['exitCode']}` : 'exited';
		return {reason: 'exited', words, short: code, previous: false};
	}

	if (waitingReason && waitingReason !== 'ContainerCreating' && waitingReason !== 'PodInitializing') {
		const words = withMessage(`${waitingReason} in ${where}`, waitingMessage);
		return {reason: 'waiting', words, short: waitingReason, previous: restarts > 0};
	}

	return undefined;
}

/** What a raw Pod says, and why it is not well, with `events` (warning Events about pods in its namespace). */
export function podFacts(raw: KubeObject, events: readonly PodEvent[] = []): PodFacts {
	const meta = record(raw.metadata);
	const status = record(raw['status']);
	const spec = record(raw['spec']);
	const podName = name(meta['name']);
	const phase = name(status['phase']);
	const statuses = list(status['containerStatuses']);
	const initStatuses = list(status['initContainerStatuses']);
	const specContainers = list(spec['containers']);
	const total = Math.max(specContainers.length, statuses.length);
	const readyCount = statuses.filter(s => s['ready'] === true).length;
	const restarts = [...statuses, ...initStatuses].reduce((sum, s) => sum + count(s['restartCount']), 0);
	const labels: Record<string, string> = {};
	for (const [k, v] of Object.entries(record(meta['labels']))) {
		if (typeof v === 'string') {
			labels[name(k)] = name(v);
		}
	}

	const base = {
		namespace: name(meta['namespace']),
		name: podName,
		...(typeof meta['uid'] === 'string' ? {uid: name(meta['uid'])} : {}),
		phase,
		ready: `${readyCount}/${total}`,
		restarts,
		...(typeof meta['creationTimestamp'] === 'string' ? {createdAt: name(meta['creationTimestamp'])} : {}),
		labels,
		deleting: typeof meta['deletionTimestamp'] === 'string',
	};
	const firstContainer = name(specContainers[0]?.['name']) || name(statuses[0]?.['name']) || undefined;
	const hasLog = (container: string | undefined, previous: boolean): boolean => {
		const s = [...initStatuses, ...statuses].find(c => name(c['name']) === container);
		if (!s) {
			return false;
		}

		const has = (state: unknown, key: string): boolean => {
			const part = record(state)[key];
			return typeof part === 'object' && part !== null && !Array.isArray(part);
		};
		return previous
			? has(s['lastState'], 'terminated') || count(s['restartCount']) > 0
			: has(s['state'], 'running') || has(s['state'], 'terminated');
	};

	const verdict = (
		reason: PodReason,
		[words, short]: readonly [string, string],
		trouble: boolean,
		container = firstContainer,
		previous = false,
	): PodFacts => ({
		...base,
		reason,
		words,
		short,
		...(container ? {container} : {}),
		previous,
		hasLog: hasLog(container, previous),
		trouble,
	});

	// A pod that has ended keeps what it ended with while it is deleted: the Kanister controller deletes its pod right
	// after a failed function, and the last state planwatch sees of it is that deletion (with the failure in it).
	if (base.deleting && phase !== 'Failed' && phase !== 'Succeeded') {
		return verdict('terminating', ['terminating', 'Terminating'], false);
	}

	const conditions = list(status['conditions']);
	const scheduled = conditions.find(c => c['type'] === 'PodScheduled');
	if (phase === 'Pending' && scheduled && scheduled['status'] === 'False') {
		const event = latestEvent(events, podName, ['FailedScheduling']);
		const message = event?.message ?? text(scheduled['message']);
		return verdict('unschedulable', [withMessage('Pending: not scheduled', message), 'Unschedulable'], true, undefined);
	}

	const containers: ContainerView[] = [
		...initStatuses.map(s => ({name: name(s['name']), status: s, init: true})),
		...statuses.map(s => ({name: name(s['name']), status: s, init: false})),
	];
	for (const c of containers) {
		const found = containerReason(c);
		if (found) {
			return verdict(found.reason, [found.words, found.short], true, c.name, found.previous);
		}
	}

	if (phase === 'Failed') {
		const reason = text(status['reason']);
		const words = withMessage(`Failed${reason ? ` (${reason})` : ''}`, text(status['message']));
		return verdict('failed', [words, reason || 'Failed'], true);
	}

	if (phase === 'Succeeded') {
		return verdict('succeeded', ['completed', 'Completed'], false);
	}

	if (phase === 'Running') {
		const ready = conditions.find(c => c['type'] === 'Ready');
		if (ready?.['status'] === 'True') {
			return verdict('ready', ['running, ready', 'Running'], false);
		}

		const notReady = statuses.find(s => s['ready'] !== true && 'running' in record(s['state']));
		const probe = latestEvent(events, podName, ['Unhealthy']);
		if (notReady || probe) {
			const container = notReady ? name(notReady['name']) : firstContainer;
			const words = withMessage(`running, not ready (${base.ready})`, probe?.message ?? '');
			return verdict('not-ready', [words, probe ? 'Readiness probe failed' : 'not ready'], true, container);
		}

		return verdict('waiting', [`running, not ready (${base.ready})`, 'not ready'], false);
	}

	if (phase === 'Pending') {
		return verdict('pending', ['Pending: waiting for its containers to start', 'Pending'], false);
	}

	return verdict('unknown', phase ? [`phase ${phase}`, phase] : ['no status yet', 'no status'], false);
}
