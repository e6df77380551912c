import type {PlanEvent} from './plan-tree.js';
import {latestTime, timeValue} from './read-raw.js';

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
	readonly latest?: string;
};

function after(prefix: string, text: string): string | undefined {
	return text.startsWith(prefix) ? text.slice(prefix.length).trim() : undefined;
}

/**
 * "Failed to execute phase: v1alpha1.Phase{Name:\"copyFiles\", …, Progress:v1alpha1.PhaseProgress{…}}: <error>"
 * → phase name and error (the controller dumps the phase struct with %#v before the error).
 */
function parseFailure(text: string): {phase: string | undefined; defer: boolean; error: string} | undefined {
	const defer = text.startsWith('Failed to execute defer phase');
	if (!defer && !text.startsWith('Failed to execute phase')) {
		return undefined;
	}

	const phase = /Phase\{Name:"((?:[^"\\]|\\.)*)"/.exec(text)?.[1];
	const structEnd = text.indexOf('}}: ', text.indexOf('PhaseProgress{'));
	const colon = text.indexOf(': ');
	const error = text.indexOf('PhaseProgress{') !== -1 && structEnd !== -1
		? text.slice(structEnd + 4)
		: colon === -1 ? '' : text.slice(colon + 2);
	return {phase, defer, error};
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

function add(map: Map<string, number>, key: string, n: number): void {
	map.set(key, (map.get(key) ?? 0) + n);
}

export function readKanisterEvents(
	events: readonly PlanEvent[],
	namespace: string,
	objectName: string,
	createdAt: string | undefined,
): KanisterEventFacts {
	const facts: KanisterEventFacts = {
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
		let x: string | undefined;
		if (e.reason === 'Started Action' && (x = after('Executing action', e.message)) !== undefined) {
			facts.actionStarted.set(x, t);
		} else if (e.reason === 'Started Phase' && (x = after('Executing phase', e.message)) !== undefined) {
			facts.phaseStarted.set(x, t);
			facts.phaseEnded.delete(x);
		} else if (e.reason === 'Ended Phase' && (x = after('Completed phase', e.message)) !== undefined) {
			facts.phaseEnded.set(x, t);
		} else if (e.reason === 'Started deferPhase' && (x = after('Executing deferPhase', e.message)) !== undefined) {
			facts.deferStarted.set(x, t);
			facts.deferEnded.delete(x);
			add(facts.deferStartCount, x, e.count);
		} else if (e.reason === 'Ended deferPhase' && (x = after('Completed deferPhase', e.message)) !== undefined) {
			facts.deferEnded.set(x, t);
			add(facts.deferEndCount, x, e.count);
		} else if (e.reason.startsWith('ActionSetFailed Action:')) {
			const action = e.reason.slice('ActionSetFailed Action:'.length).trim();
			const failure = parseFailure(e.message);
			const launch = launchError(e.message);
			const legacy = legacyFailure.exec(e.message);
			if (launch !== undefined) {
				facts.launchFailed.set(action, {time: e.time, error: launch});
			} else if (legacy) {
				// The regular expression's groups always match (`(.*)` may be empty): never undefined.
				facts.legacyPhaseFailed.set(action, {index: Number(legacy[1]), time: e.time, error: legacy[3]!});
			} else if (failure?.defer) {
				facts.deferFailed.set(action, {time: e.time, error: failure.error});
			} else if (failure?.phase !== undefined) {
				facts.phaseFailed.set(`${action}/${failure.phase}`, {time: e.time, error: failure.error});
			}
		}
	}

	return latest === undefined ? facts : {...facts, latest};
}
