import type {PlanEvent} from './plan-tree.js';
import {latestTime, timeValue} from './read-raw.js';

type Mutable<T> = {-readonly [K in keyof T]: T[K]};

/*
 * What a Kanister ActionSet's Events say (kanisterio/kanister pkg/controller/controller.go, `logAndSuccessEvent`
 * and `logAndErrorEvent`): phase and deferPhase start/end times, and the errors of
 * failed phases (the "ActionSetFailed" warning keeps a core-phase error the object loses when the deferPhase fails
 * too). Events arrive unordered and may belong to an earlier ActionSet of the same name.
 */

/** What the events say, by phase name. */
export type KanisterEventFacts = {
	readonly actionStarted: Map<string, string>;
	readonly phaseStarted: Map<string, string>;
	readonly phaseEnded: Map<string, string>;
	readonly deferStarted: Map<string, string>;
	readonly deferEnded: Map<string, string>;
	/** `action/phase` → {time, error} from "ActionSetFailed" warnings. */
	readonly phaseFailed: Map<string, {time?: string; error: string}>;
	readonly deferFailed: Map<string, {time?: string; error: string}>;
	/** deferPhase name → how many times the controller said it started / ended (names repeat across actions). */
	readonly deferStartCount: Map<string, number>;
	readonly deferEndCount: Map<string, number>;
	/**
	 * Action name → the controller could not launch it ("Failed to launch Action <actionset>: …" under reason
	 * "ActionSetFailed Action: <action>"): no goroutine started, so its deferPhase never runs.
	 */
	readonly launchFailed: Map<string, {time?: string; error: string}>;
	/**
	 * Action name → "Failed to run phase <n> of action <action>: …", written by controllers older than 0.5.0,
	 * which predate deferPhases (0.77.0): after it nothing more runs for that action.
	 */
	readonly legacyPhaseFailed: Map<string, {index: number; time?: string; error: string}>;
	/** `action/phase` → the phase's result could not be written ("Failed to update phase"): its state is stale. */
	readonly phaseUpdateFailed: Map<string, KanisterFailure>;
	/** Action → its deferPhase's result could not be written ("Failed to update defer phase"): it runs no more. */
	readonly deferUpdateFailed: Map<string, KanisterFailure>;
	/** Action → a failure outside its phases (initial status, artifacts, the final update), the latest one. */
	readonly actionFailed: Map<string, KanisterFailure & {readonly what: ActionFailureKind}>;
	/** The latest error about the ActionSet as a whole (validation, Blueprint, update), if any. */
	readonly objectError?: KanisterFailure & {readonly what: ObjectErrorKind};
	/** When the controller said the ActionSet was complete ("Update Complete"). */
	readonly completedAt?: string;
	readonly latest?: string;
};

/** A failure the controller recorded against a node or the ActionSet: when, and the error it gave. */
export type KanisterFailure = {readonly time?: string; readonly error: string};

/** What goes wrong outside the phases, in the controller's words (the message's leading sentence). */
export type ActionFailureKind = 'initial action' | 'render artifacts' | 'update artifacts' | 'update ActionSet';
export type ObjectErrorKind = 'rejected' | 'delete' | 'blueprint' | 'update';

/**
 * One Event's reason and message, read as the controller wrote it (kanisterio/kanister pkg/controller/controller.go:
 * `logAndSuccessEvent(msg, reason)` writes `msg`, `logAndErrorEvent(msg, reason, err)` writes `msg + " " + err`, where
 * most messages end in `%#v:` — a Go dump of the phase or the artifacts, then the error).
 */
export type KanisterMessage =
	| {readonly kind: 'action started' | 'phase started' | 'phase ended' | 'defer started' | 'defer ended'; readonly name: string}
	/** The phase failed (`Failed to execute phase`, or `Failed to init phase params`): its state is written failed. */
	| {readonly kind: 'phase failed'; readonly action: string; readonly phase: string; readonly error: string}
	/**
	 * `Failed to update phase`: the phase's result could not be written (the ActionSet was deleted, or the apiserver
	 * refused). The controller stops the action's phases there (its deferPhase still runs): the phase's state in the
	 * object is stale.
	 */
	| {readonly kind: 'phase update failed'; readonly action: string; readonly phase: string; readonly error: string}
	| {readonly kind: 'defer failed' | 'defer update failed'; readonly action: string; readonly error: string}
	| {readonly kind: 'launch failed'; readonly action: string; readonly error: string}
	| {readonly kind: 'legacy phase failed'; readonly action: string; readonly index: number; readonly error: string}
	| {readonly kind: 'action failed'; readonly action: string; readonly what: ActionFailureKind; readonly error: string}
	| {readonly kind: 'object error'; readonly what: ObjectErrorKind; readonly error: string}
	/** `Update Complete`: the controller saw the ActionSet turn complete. */
	| {readonly kind: 'completed'};

function after(prefix: string, text: string): string | undefined {
	return text.startsWith(prefix) ? text.slice(prefix.length).trim() : undefined;
}

/**
 * Where the Go `%#v` dump that starts `text` ends (`v1alpha1.Phase{…}`, `map[string]v1alpha1.Artifact{…}`): braces
 * counted, quoted strings (strconv.Quote: backslash escapes) skipped. -1 when it does not start with one or never
 * closes (a message cut by the sanitizer's cap).
 */
function goDumpEnd(text: string): number {
	const open = text.indexOf('{');
	if (open <= 0 || !/^[\w.[\]*]+$/.test(text.slice(0, open))) {
		return -1;
	}

	let depth = 0;
	for (let i = open; i < text.length; i++) {
		const c = text[i];
		if (c === '"') {
			for (i++; i < text.length && text[i] !== '"'; i++) {
				if (text[i] === '\\') {
					i++;
				}
			}
		} else if (c === '{') {
			depth++;
		} else if (c === '}' && --depth === 0) {
			return i + 1;
		}
	}

	return -1;
}

/**
 * `<prefix>: <dump>: <error>` → the error. Without a dump that closes and is followed by `: `, everything after the
 * first `: ` of the message (a hand-written or cut message keeps all it says).
 */
function errorAfterDump(text: string, prefix: string): string {
	const rest = text.slice(prefix.length).replace(/^:? ?/, '');
	const end = goDumpEnd(rest);
	if (end !== -1 && rest.startsWith(': ', end)) {
		return rest.slice(end + 2);
	}

	const colon = text.indexOf(': ');
	return colon === -1 ? '' : text.slice(colon + 2);
}

/** The phase a `%#v` dump names (`v1alpha1.Phase{Name:"dump", …}`). */
function dumpedPhase(text: string): string | undefined {
	return /Phase\{Name:"((?:[^"\\]|\\.)*)"/.exec(text)?.[1];
}

const legacyFailure = /^Failed to run phase (\d+) of action (.*?): (.*)/s;

/** `Failed to launch Action <actionset>: <error>` (before 2018: `Failed launch Action …`) → the error. */
function launchError(text: string): string | undefined {
	const m = /^Failed (?:to )?launch Action /.exec(text);
	if (!m) {
		return undefined;
	}

	const colon = text.indexOf(': ', m[0].length);
	return colon === -1 ? '' : text.slice(colon + 2);
}

/** A phase message (`<prefix>: v1alpha1.Phase{Name:"…"…}: <error>`), or undefined when it names no phase. */
function phaseMessage(text: string, prefix: string): {phase: string; error: string} | undefined {
	if (!text.startsWith(prefix)) {
		return undefined;
	}

	const phase = dumpedPhase(text);
	return phase === undefined ? undefined : {phase, error: errorAfterDump(text, prefix)};
}

/** The failures under reason `ActionSetFailed Action: <action>`. */
function actionSetFailed(action: string, text: string): KanisterMessage | undefined {
	const launch = launchError(text);
	if (launch !== undefined) {
		return {kind: 'launch failed', action, error: launch};
	}

	const legacy = legacyFailure.exec(text);
	if (legacy) {
		// The regular expression's groups always match (`(.*)` may be empty): never undefined.
		return {kind: 'legacy phase failed', action, index: Number(legacy[1]), error: legacy[3]!};
	}

	for (const prefix of ['Failed to execute defer phase', 'Failed to update defer phase']) {
		if (text.startsWith(prefix)) {
			return {kind: prefix.includes('update') ? 'defer update failed' : 'defer failed', action, error: errorAfterDump(text, prefix)};
		}
	}

	for (const prefix of ['Failed to execute phase', 'Failed to init phase params']) {
		const m = phaseMessage(text, prefix);
		if (m) {
			return {kind: 'phase failed', action, ...m};
		}
	}

	const update = phaseMessage(text, 'Failed to update phase');
	if (update) {
		return {kind: 'phase update failed', action, ...update};
	}

	// `msg + " " + err` with msgs that end in no colon: the error is what follows the sentence.
	const actionFailures: ReadonlyArray<[string, ActionFailureKind]> = [
		['Could not get initial action:', 'initial action'],
		['Failed to render output artifacts', 'render artifacts'],
		['Failed to update Output Artifacts:', 'update artifacts'],
		['Failed to update ActionSet:', 'update ActionSet'],
	];
	for (const [prefix, what] of actionFailures) {
		if (text.startsWith(prefix)) {
			const error =
				what === 'update artifacts'
					? errorAfterDump(text, prefix)
					: what === 'update ActionSet'
						? text.slice(prefix.length).trim().replace(/^\S+ ?/, '') // the ActionSet's name comes first
						: text.slice(prefix.length).replace(/^:? /, '');
			return {kind: 'action failed', action, what, error};
		}
	}

	return undefined;
}

/** Everything the controller writes about an ActionSet, read; undefined for what it does not write. */
export function readKanisterEvent(reason: string, message: string): KanisterMessage | undefined {
	const starts: ReadonlyArray<[string, string, KanisterMessage['kind']]> = [
		['Started Action', 'Executing action', 'action started'],
		['Started Phase', 'Executing phase', 'phase started'],
		['Ended Phase', 'Completed phase', 'phase ended'],
		['Started deferPhase', 'Executing deferPhase', 'defer started'],
		['Ended deferPhase', 'Completed deferPhase', 'defer ended'],
	];
	for (const [r, prefix, kind] of starts) {
		const name = reason === r ? after(prefix, message) : undefined;
		if (name !== undefined) {
			return {kind, name} as KanisterMessage;
		}
	}

	if (reason.startsWith('ActionSetFailed Action:')) {
		return actionSetFailed(reason.slice('ActionSetFailed Action:'.length).trim(), message);
	}

	if (reason === 'Update Complete' && /^Updated ActionSet '.*' Status->complete$/s.test(message)) {
		return {kind: 'completed'};
	}

	const objectErrors: ReadonlyArray<[string, string, ObjectErrorKind]> = [
		['Error', 'Callback onUpdateActionSet() failed:', 'rejected'],
		['Error', 'Callback onDeleteActionSet() failed:', 'delete'],
		['Error', 'Could not get blueprint:', 'blueprint'],
		['Blueprint not specified', 'Could not get blueprint:', 'blueprint'],
		['Update Failed', 'Could not update ActionSet:', 'update'],
	];
	for (const [r, prefix, what] of objectErrors) {
		if (reason === r && message.startsWith(prefix)) {
			return {kind: 'object error', what, error: message.slice(prefix.length).trim()};
		}
	}

	return undefined;
}

function add(map: Map<string, number>, key: string, n: number): void {
	map.set(key, (map.get(key) ?? 0) + n);
}

export function readKanisterEvents(
	events: readonly PlanEvent[],
	namespace: string,
	objectName: string,
	createdAt: string | undefined,
): KanisterEventFacts {
	const facts: Mutable<KanisterEventFacts> = {
		actionStarted: new Map(),
		phaseStarted: new Map(),
		phaseEnded: new Map(),
		deferStarted: new Map(),
		deferEnded: new Map(),
		phaseFailed: new Map(),
		deferFailed: new Map(),
		deferStartCount: new Map(),
		deferEndCount: new Map(),
		launchFailed: new Map(),
		legacyPhaseFailed: new Map(),
		phaseUpdateFailed: new Map(),
		deferUpdateFailed: new Map(),
		actionFailed: new Map(),
	};
	const mine = events
		.filter(e => e.involvedKind === 'ActionSet' && e.involvedName === objectName && (!e.namespace || e.namespace === namespace))
		// Events of an earlier ActionSet with the same name outlive it (1 h TTL): ignore what predates this one
		// (with no creation time, timeValue is -Infinity and every event counts).
		.filter(e => e.time === undefined || timeValue(e.time) >= timeValue(createdAt))
		// sort is stable: events of the same second (and those without a time: -Infinity - -Infinity is NaN,
		// which sort takes as equal) keep the order they came in.
		.sort((a, b) => timeValue(a.time) - timeValue(b.time));
	let latest: string | undefined;
	for (const e of mine) {
		latest = latestTime(latest, e.time);
		const t = e.time ?? '';
		const m = readKanisterEvent(e.reason, e.message);
		switch (m?.kind) {
			case 'action started': {
				facts.actionStarted.set(m.name, t);
				break;
			}

			case 'phase started': {
				facts.phaseStarted.set(m.name, t);
				facts.phaseEnded.delete(m.name);
				break;
			}

			case 'phase ended': {
				facts.phaseEnded.set(m.name, t);
				break;
			}

			case 'defer started': {
				facts.deferStarted.set(m.name, t);
				facts.deferEnded.delete(m.name);
				add(facts.deferStartCount, m.name, e.count);
				break;
			}

			case 'defer ended': {
				facts.deferEnded.set(m.name, t);
				add(facts.deferEndCount, m.name, e.count);
				break;
			}

			case 'phase failed': {
				facts.phaseFailed.set(`${m.action}/${m.phase}`, {time: e.time, error: m.error});
				break;
			}

			case 'phase update failed': {
				facts.phaseUpdateFailed.set(`${m.action}/${m.phase}`, {time: e.time, error: m.error});
				break;
			}

			case 'defer failed': {
				facts.deferFailed.set(m.action, {time: e.time, error: m.error});
				break;
			}

			case 'defer update failed': {
				facts.deferUpdateFailed.set(m.action, {time: e.time, error: m.error});
				break;
			}

			case 'launch failed': {
				facts.launchFailed.set(m.action, {time: e.time, error: m.error});
				break;
			}

			case 'legacy phase failed': {
				facts.legacyPhaseFailed.set(m.action, {index: m.index, time: e.time, error: m.error});
				break;
			}

			case 'action failed': {
				facts.actionFailed.set(m.action, {time: e.time, error: m.error, what: m.what});
				break;
			}

			case 'object error': {
				facts.objectError = {time: e.time, error: m.error, what: m.what};
				break;
			}

			case 'completed': {
				if (e.time !== undefined) {
					facts.completedAt = e.time;
				}

				break;
			}

			case undefined: {
				break;
			}
		}
	}

	return latest === undefined ? facts : {...facts, latest};
}
